import { describe, expect, it } from 'vitest';
import { isDNS1035Label, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../src/validation/k8s-names.ts';
import { checkMinimumRayVersion, parseGenericVersion, versionLessThan } from '../../src/validation/ray-version.ts';
import { parseRuntimeEnvYAML } from '../../src/validation/runtime-env.ts';
import { parseRayJob } from '../../src/validation/parse.ts';

const SUBDOMAIN_REGEX_ERROR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const NAME_PART_REGEX_ERROR =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

describe('Kubernetes name checks return Kubernetes error texts', () => {
  it.each([
    { name: 'DNS-1035 accepts a lower-case name', errs: isDNS1035Label('my-job-1'), count: 0 },
    { name: 'DNS-1035 rejects a leading digit', errs: isDNS1035Label('1job'), count: 1 },
    { name: 'DNS-1035 reports length and pattern separately', errs: isDNS1035Label('A'.repeat(64)), count: 2 },
    { name: 'DNS-1123 label accepts a leading digit', errs: isDNS1123Label('1-group'), count: 0 },
    { name: 'DNS-1123 label rejects 64 characters', errs: isDNS1123Label('a'.repeat(64)), count: 1 },
    { name: 'DNS-1123 subdomain accepts dots', errs: isDNS1123Subdomain('example.com'), count: 0 },
    { name: 'DNS-1123 subdomain rejects 254 characters', errs: isDNS1123Subdomain('a'.repeat(254)), count: 1 },
    { name: 'label value accepts empty', errs: isValidLabelValue(''), count: 0 },
    { name: 'label value rejects 64 characters', errs: isValidLabelValue('a'.repeat(64)), count: 1 },
  ])('$name', ({ errs, count }) => {
    expect(errs).toHaveLength(count);
  });

  it('DNS-1035 length error uses the Kubernetes wording', () => {
    expect(isDNS1035Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });

  it.each([
    { key: 'app', errors: [] },
    { key: 'example.com/app', errors: [] },
    { key: '/app', errors: ['prefix part must be non-empty'] },
    { key: 'Bad_Prefix/app', errors: [`prefix part ${SUBDOMAIN_REGEX_ERROR}`] },
    { key: 'example.com/', errors: ['name part must be non-empty', NAME_PART_REGEX_ERROR] },
    { key: `${'a'.repeat(64)}`, errors: ['name part must be no more than 63 characters'] },
    {
      key: 'a/b/c',
      errors: [
        "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    },
  ])('qualified name $key', ({ key, errors }) => {
    expect(isQualifiedName(key)).toEqual(errors);
  });
});

describe('generic version parsing (rayVersion)', () => {
  it.each([
    { text: '2.52.0', result: { ok: true, components: [2, 52, 0] } },
    { text: 'v2.9', result: { ok: true, components: [2, 9] } },
    { text: '2.55.1-rc1', result: { ok: true, components: [2, 55, 1] } },
    { text: 'not-a-version', result: { ok: false, error: 'could not parse "not-a-version" as version' } },
    { text: '2', result: { ok: false, error: 'illegal version string "2"' } },
    { text: '02.5', result: { ok: false, error: 'illegal zero-prefixed version component "02" in "02.5"' } },
  ])('$text', ({ text, result }) => {
    expect(parseGenericVersion(text)).toEqual(result);
  });

  it.each([
    { a: [2, 51, 9], b: [2, 52, 0], less: true },
    { a: [2, 52], b: [2, 52, 0], less: false },
    { a: [3, 0, 0], b: [2, 52, 0], less: false },
    { a: [2, 52, 0, 1], b: [2, 52, 0], less: false },
  ])('$a < $b is $less', ({ a, b, less }) => {
    expect(versionLessThan(a, b)).toBe(less);
  });

  it('checkMinimumRayVersion returns undefined for a new enough version', () => {
    const messages = { missing: 'm', invalid: () => 'i', tooOld: () => 'o' };
    expect(checkMinimumRayVersion('2.60.0', [2, 52, 0], messages)).toBeUndefined();
    expect(checkMinimumRayVersion(undefined, [2, 52, 0], messages)).toBe('m');
  });
});

describe('runtimeEnvYAML parsing', () => {
  it.each([
    { name: 'unset', text: undefined, ok: true },
    { name: 'empty', text: '', ok: true },
    { name: 'null document', text: 'null', ok: true },
    { name: 'a map', text: 'working_dir: /tmp\nenv_vars:\n  A: b\n', ok: true },
    { name: 'a list', text: '- a\n- b\n', ok: false },
    { name: 'a number', text: '42', ok: false },
    { name: 'a boolean', text: 'true', ok: false },
    { name: 'broken YAML', text: 'a: [1, 2', ok: false },
  ])('$name', ({ text, ok }) => {
    expect(parseRuntimeEnvYAML(text).ok).toBe(ok);
  });

  it('names the Go type and the JSON kind for a non-map value, without repeating the YAML', () => {
    expect(parseRuntimeEnvYAML('- a\n')).toEqual({
      ok: false,
      message:
        'failed to unmarshal RuntimeEnvYAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {} (the YAML is not repeated: it may hold secrets)',
    });
    expect(parseRuntimeEnvYAML('true')).toMatchObject({ message: expect.stringContaining('cannot unmarshal bool into') });
  });

  // Runtime envs carry secrets in env_vars; the message lands in status.message and an Event (issue 23).
  it.each([
    { name: 'an unclosed quote', text: 'env_vars:\n  DB_PASSWORD: "s3cr3t-hunter2\n  B: c\n', where: 'line 4, column 1', kind: 'a quote or bracket is not closed' },
    { name: 'an unclosed flow sequence', text: 'env_vars: {TOKEN: s3cr3t-hunter2\npip: [a, b', where: 'line 2, column 1', kind: 'bad indentation, or a [ or { not closed' },
    { name: 'bad indentation', text: 'env_vars:\n  A: s3cr3t-hunter2\n    B: c\n', where: 'line 2, column 6', kind: 'a nested mapping in a compact mapping' },
    { name: 'a bad escape quoting the secret', text: 'env_vars:\n  KEY: "s3cr3t-hunter2\\q"\n', where: 'line 2, column', kind: 'an invalid escape sequence in a double-quoted string' },
    { name: 'a tab as indentation', text: 'env_vars:\n\tKEY: s3cr3t-hunter2\n', where: 'line 2, column 1', kind: 'a tab used as indentation' },
    { name: 'an undefined alias', text: 'env_vars: *s3cr3t-hunter2\n', where: undefined, kind: 'an alias refers to an anchor that is not defined before it' },
    { name: 'a scalar that is not a map', text: 's3cr3t-hunter2', where: undefined, kind: 'cannot unmarshal string into Go value' },
  ])('a YAML error ($name) says where and what, never the text', ({ text, where, kind }) => {
    const result = parseRuntimeEnvYAML(text);
    expect(result.ok).toBe(false);
    const message = result.ok ? '' : result.message;
    expect(message).not.toContain('s3cr3t');
    expect(message).not.toContain('hunter2');
    expect(message).toMatch(/^failed to unmarshal RuntimeEnvYAML: /);
    expect(message).toContain('(the YAML is not repeated: it may hold secrets)');
    if (where !== undefined) expect(message).toContain(`yaml: ${where}`);
    if (kind !== undefined) expect(message).toContain(kind);
  });

  it('returns the parsed map', () => {
    expect(parseRuntimeEnvYAML('pip: [requests]')).toEqual({ ok: true, runtimeEnv: { pip: ['requests'] } });
  });
});

describe('parseRayJob', () => {
  it('parses a RayJob and applies the CRD defaults', () => {
    const result = parseRayJob({ metadata: { name: 'a' }, spec: { entrypoint: 'python x.py' } });
    expect(result).toMatchObject({ ok: true, rayJob: { spec: { submissionMode: 'K8sJobMode', backoffLimit: 0, ttlSecondsAfterFinished: 0 } } });
  });

  it('turns an unknown submissionMode (accepted by the CRD) into an InvalidRayJobSpec naming the field', () => {
    const result = parseRayJob({ metadata: { name: 'a' }, spec: { submissionMode: 'K8sJobMod' } });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.eventReason).toBe('InvalidRayJobSpec');
    expect(!result.ok && result.message).toMatch(/^The RayJob spec is invalid: spec\.submissionMode: .*"K8sJobMode"/);
  });

  it('names the root when the object is not an object at all', () => {
    expect(parseRayJob('nope')).toMatchObject({ ok: false, message: expect.stringContaining('<root>: ') });
  });
});
