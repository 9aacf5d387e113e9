// Secrets (the Ray token, the API server credential, extra header values) must never reach a log line, an error
// value, a thrown message, stdout/stderr or a termination message. Every text the client and the submitter hand
// back passes through a redactor: the one definition (the submitter imports it too).

export type Redactor = (text: string) => string;

export function makeRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
  // A secret can also appear JSON-escaped (inside a JSON log line, an echoed header object or a JSON error body).
  const forms = new Set<string>();
  for (const secret of secrets) {
    // Short values (e.g. "1") are too short to be credentials; hiding them would mangle unrelated text.
    if (typeof secret !== 'string' || secret.length < 4) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  // Longest first, so a secret that contains another is hidden whole.
  const list = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of list) out = out.split(form).join('[redacted]');
    return out;
  };
}
