// Secrets (the Ray token, the API server credential, extra header values) must never reach a log line, an
// error value or a thrown message. Every text the client hands back passes through a redactor.

export type Redactor = (text: string) => string;

export function makeRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  // Short values (e.g. "1") would mangle unrelated text and are not secrets worth hiding.
  const list = secrets.filter((s): s is string => typeof s === 'string' && s.length >= 4);
  list.sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of list) out = out.split(secret).join('[redacted]');
    return out;
  };
}
