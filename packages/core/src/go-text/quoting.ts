/**
 * Text as KubeRay's Go code writes it, so messages and scripts match byte for byte.
 *
 * Go's strconv.Quote, which KubeRay uses for the values it splices into its `bash -ce` submit script: a
 * double-quoted string with \" \\ and control characters escaped; printable Unicode is kept as is.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * POSIX shell quoting (Python's shlex.quote): safe words stay bare, anything else is single-quoted with each
 * embedded single quote written as '"'"'. The shell turns it back into exactly the original bytes.
 */
export function shellQuote(s: string): string {
  if (s === '') return "''";
  if (/^[A-Za-z0-9@%+=:,./_-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

/** `ray job submit`'s join of several entrypoint arguments (shlex.join). */
export function shellJoin(args: readonly string[]): string {
  return args.map(shellQuote).join(' ');
}

/** Go's encoding/json escapes <, > and & (HTML safety) even in compact output; KubeRay's script shows it. */
export function goJsonEscape(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
