/**
 * Kubernetes' name and label checks (k8s.io/apimachinery/pkg/util/validation), returning the same error texts,
 * because KubeRay puts them verbatim into RayJob messages and users match on them.
 */

const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
const QUALIFIED_NAME_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = `(${QUALIFIED_NAME_FMT})?`;

const DNS1035_LABEL_MSG =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const DNS1123_LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MSG =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const QUALIFIED_NAME_MSG =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MSG =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

const LABEL_MAX_LENGTH = 63;
const SUBDOMAIN_MAX_LENGTH = 253;

const fullMatch = (fmt: string) => new RegExp(`^${fmt}$`);
const DNS1035_LABEL_RE = fullMatch(DNS1035_LABEL_FMT);
const DNS1123_LABEL_RE = fullMatch(DNS1123_LABEL_FMT);
const DNS1123_SUBDOMAIN_RE = fullMatch(DNS1123_SUBDOMAIN_FMT);
const QUALIFIED_NAME_RE = fullMatch(QUALIFIED_NAME_FMT);
const LABEL_VALUE_RE = fullMatch(LABEL_VALUE_FMT);

/** Kubernetes' RegexError text, including its double space before "or". */
function regexError(msg: string, fmt: string, ...examples: string[]): string {
  const shown = examples.map((e, i) => `${i > 0 ? ' or ' : ''}'${e}', `).join('');
  return `${msg} (e.g. ${shown}regex used for validation is '${fmt}')`;
}

const maxLenError = (n: number) => `must be no more than ${n} characters`;

export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_MAX_LENGTH) errs.push(maxLenError(LABEL_MAX_LENGTH));
  if (!DNS1035_LABEL_RE.test(value)) errs.push(regexError(DNS1035_LABEL_MSG, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_MAX_LENGTH) errs.push(maxLenError(LABEL_MAX_LENGTH));
  if (!DNS1123_LABEL_RE.test(value)) errs.push(regexError(DNS1123_LABEL_MSG, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
  return errs;
}

export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(SUBDOMAIN_MAX_LENGTH));
  if (!DNS1123_SUBDOMAIN_RE.test(value)) errs.push(regexError(DNS1123_SUBDOMAIN_MSG, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** A label key: an optional DNS-1123 subdomain prefix and "/", then a name of at most 63 characters. */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) {
    name = parts[0] as string;
  } else if (parts.length === 2) {
    const [prefix, rest] = parts as [string, string];
    name = rest;
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const msg of isDNS1123Subdomain(prefix)) errs.push(`prefix part ${msg}`);
  } else {
    return [`a qualified name ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > LABEL_MAX_LENGTH) errs.push(`name part ${maxLenError(LABEL_MAX_LENGTH)}`);
  if (!QUALIFIED_NAME_RE.test(name)) {
    errs.push(`name part ${regexError(QUALIFIED_NAME_MSG, QUALIFIED_NAME_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (value.length > LABEL_MAX_LENGTH) errs.push(maxLenError(LABEL_MAX_LENGTH));
  if (!LABEL_VALUE_RE.test(value)) errs.push(regexError(LABEL_VALUE_MSG, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** Go's `%v` of a []string: "[a b]". */
export const goStringList = (items: readonly string[]): string => `[${items.join(' ')}]`;

/** Go's `%q` (strconv.Quote), shared with the builders. */
export { goQuote } from '../go-text/quoting.ts';
