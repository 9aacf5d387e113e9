import { parse, YAMLParseError, type ErrorCode } from 'yaml';

/**
 * spec.runtimeEnvYAML must be YAML for a map (or empty), as KubeRay checks before it converts it to JSON for
 * the dashboard. The inner error texts follow Go's sigs.k8s.io/yaml where they can.
 *
 * Unlike KubeRay, a failure never repeats the YAML: runtime environments carry secrets in `env_vars`, and this
 * message goes into status.message and an Event that every namespace reader sees. It says where the YAML fails
 * (line and column) and what kind of error it is, in fixed words: the parser's own messages quote the text
 * (`Invalid escape sequence \q`, `Unexpected ... token: "..."`), so they are not used.
 */
export type RuntimeEnvParse = { ok: true; runtimeEnv: Record<string, unknown> | undefined } | { ok: false; message: string };

const kinds: Partial<Record<ErrorCode, string>> = {
  BAD_INDENT: 'bad indentation, or a [ or { not closed',
  TAB_AS_INDENT: 'a tab used as indentation',
  MISSING_CHAR: 'a quote or bracket is not closed',
  BAD_DQ_ESCAPE: 'an invalid escape sequence in a double-quoted string',
  BAD_SCALAR_START: 'a plain value starts with a reserved character',
  BLOCK_AS_IMPLICIT_KEY: 'a nested mapping in a compact mapping (a missing newline or space?)',
  MULTILINE_IMPLICIT_KEY: 'a key spread over several lines (a missing colon?)',
  BLOCK_IN_FLOW: 'a block collection inside a flow collection',
  DUPLICATE_KEY: 'a duplicate key',
  KEY_OVER_1024_CHARS: 'a key longer than 1024 characters',
  MULTIPLE_DOCS: 'more than one YAML document',
  UNEXPECTED_TOKEN: 'an unexpected character',
  BAD_ALIAS: 'an invalid alias',
  ALIAS_PROPS: 'an alias with a tag or anchor',
  BAD_DIRECTIVE: 'an invalid directive',
  BAD_PROP_ORDER: 'anchor and tag in the wrong order',
  MULTIPLE_ANCHORS: 'more than one anchor on a node',
  MULTIPLE_TAGS: 'more than one tag on a node',
  NON_STRING_KEY: 'a key that is not a string',
  TAG_RESOLVE_FAILED: 'an unresolved tag',
  BAD_COLLECTION_TYPE: 'a collection of the wrong type',
};

const WITHHELD = '(the YAML is not repeated: it may hold secrets)';

/** Where and what, never the text: `yaml: line 3, column 1: a quote or bracket is not closed`. */
function describeSyntaxError(err: unknown): string {
  if (err instanceof YAMLParseError) {
    const at = err.linePos?.[0];
    const where = at ? `line ${at.line}, column ${at.col}` : 'unknown position';
    return `yaml: ${where}: ${kinds[err.code] ?? `invalid YAML (${err.code})`}`;
  }
  // Aliases are resolved after parsing: an alias whose anchor is missing is a ReferenceError naming the anchor.
  if (err instanceof ReferenceError) return 'yaml: an alias refers to an anchor that is not defined before it';
  return 'yaml: invalid YAML';
}

export function parseRuntimeEnvYAML(text: string | undefined): RuntimeEnvParse {
  if (!text) return { ok: true, runtimeEnv: undefined };
  let value: unknown;
  try {
    // logLevel 'error': the parser's warnings (an unknown tag) would print the offending line on stderr.
    value = parse(text, { logLevel: 'error' });
  } catch (err) {
    return { ok: false, message: failure(`error converting YAML to JSON: ${describeSyntaxError(err)}`) };
  }
  if (value === null || value === undefined) return { ok: true, runtimeEnv: undefined };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value;
    return {
      ok: false,
      message: failure(`error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`),
    };
  }
  return { ok: true, runtimeEnv: value as Record<string, unknown> };
}

const failure = (detail: string) => `failed to unmarshal RuntimeEnvYAML: ${detail} ${WITHHELD}`;
