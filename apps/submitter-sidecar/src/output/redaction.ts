// Secrets (the Ray token, header values) must never reach stdout, stderr, a JSON log line or the termination
// message. Every text the submitter itself writes passes through one of these.

export type Redact = (text: string) => string;

export function makeRedact(secrets: readonly string[]): Redact {
  // A secret can also appear JSON-escaped (inside a JSON log line or an echoed header object).
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < 4) continue; // too short to be a credential; hiding it would mangle unrelated text
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  const list = [...forms].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const form of list) out = out.split(form).join('[redacted]');
    return out;
  };
}
