import { describe, expect, it } from 'vitest';
import { parseRayAddress, validateRayClientOptions } from '../src/index.ts';

describe('parseRayAddress', () => {
  it.each([
    ['http://127.0.0.1:8265', 'http://127.0.0.1:8265'],
    ['http://127.0.0.1:8265///', 'http://127.0.0.1:8265'],
    ['127.0.0.1:8265', 'http://127.0.0.1:8265'],
    ['head-svc.ns.svc.cluster.local:8265/', 'http://head-svc.ns.svc.cluster.local:8265'],
    ['https://ray.example:443', 'https://ray.example'],
    ['HTTPS://Ray.Example:8443/', 'https://ray.example:8443'],
    [
      'https://10.0.0.1:6443/api/v1/namespaces/ns/services/head-svc:dashboard/proxy/',
      'https://10.0.0.1:6443/api/v1/namespaces/ns/services/head-svc:dashboard/proxy',
    ],
    ['[::1]:8265', 'http://[::1]:8265'],
  ])('%s -> %s', (input, baseUrl) => {
    expect(parseRayAddress(input)).toMatchObject({ ok: true, baseUrl });
  });

  it.each([
    ['', /empty/],
    ['ftp://x:1', /scheme "ftp:" is not supported/],
    ['http://user:pw@x:1', /must not carry credentials/],
    ['http://x:1/?a=b', /query or fragment/],
    ['http://:99999', /not a valid URL/],
  ])('refuses %j', (input, error) => {
    const parsed = parseRayAddress(input);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(error);
  });
});

describe('validateRayClientOptions', () => {
  it.each([
    [{ address: 'x:1', timeoutMs: 0 }, 'timeoutMs must be a positive number of milliseconds'],
    [{ address: 'x:1', token: '' }, 'token must be a non-empty single line (check the token file for a stray newline)'],
    [{ address: 'x:1', headers: { 'Sec-Fetch-Mode': 'cors' } }, 'headers: "Sec-Fetch-Mode" makes Ray treat the request as browser traffic (405 on POST/DELETE); remove it'],
    [{ address: 'x:1', headers: { 'User-Agent': 'Mozilla/5.0' } }, 'headers: a User-Agent starting with "Mozilla" makes Ray refuse POST/DELETE (405); use another'],
    [{ address: 'x:1', headers: { 'bad header': 'x' } }, 'headers: "bad header" is not a valid header name'],
    [{ address: 'x:1', apiServerAuthorization: 'a\nb' }, 'apiServerAuthorization must be a single line'],
  ])('%j -> %s', (options, problem) => {
    expect(validateRayClientOptions(options)).toEqual([problem]);
  });

  it('accepts a full, valid set', () => {
    expect(
      validateRayClientOptions({
        address: 'https://x:1', token: 't', headers: { 'X-A': 'b' }, tls: { verify: false }, timeoutMs: 2_000, rayVersion: '2.58.0',
      }),
    ).toEqual([]);
  });
});
