// Kubernetes' $(VAR) expansion for command, args and env values: $(NAME) becomes the variable's
// value when defined and stays literally "$(NAME)" otherwise; $$ escapes a dollar, so $$(NAME)
// yields the literal "$(NAME)". No shell is involved, so spaces and ';' pass through intact.
export function expandVars(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let i = 0;
  while (i < input.length) {
    const char = input[i];
    if (char !== '$' || i + 1 >= input.length) { out += char; i += 1; continue; }
    const next = input[i + 1];
    if (next === '$') { out += '$'; i += 2; continue; }
    if (next === '(') {
      const close = input.indexOf(')', i + 2);
      if (close < 0) { out += input.slice(i); break; }
      const name = input.slice(i + 2, close);
      const value = lookup(name);
      out += value ?? `$(${name})`;
      i = close + 1;
      continue;
    }
    out += char;
    i += 1;
  }
  return out;
}
