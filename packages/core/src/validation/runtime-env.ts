import { parse } from 'yaml';

/**
 * spec.runtimeEnvYAML must be YAML for a map (or empty), as KubeRay checks before it converts it to JSON for
 * the dashboard. The inner error texts follow Go's sigs.k8s.io/yaml where they can; the YAML parser's own
 * wording differs from Go's for syntax errors.
 */
export type RuntimeEnvParse = { ok: true; runtimeEnv: Record<string, unknown> | undefined } | { ok: false; message: string };

export function parseRuntimeEnvYAML(text: string | undefined): RuntimeEnvParse {
  if (!text) return { ok: true, runtimeEnv: undefined };
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    return { ok: false, message: failure(text, `error converting YAML to JSON: ${(err as Error).message}`) };
  }
  if (value === null || value === undefined) return { ok: true, runtimeEnv: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    return {
      ok: false,
      message: failure(
        text,
        `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
      ),
    };
  }
  return { ok: true, runtimeEnv: value as Record<string, unknown> };
}

const failure = (text: string, detail: string) => `failed to unmarshal RuntimeEnvYAML: ${text}: ${detail}`;
