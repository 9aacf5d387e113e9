// Input handling: every bad input is a usage error naming the flag (exit 2) before any request; durations and
// address precedence as documented; the config carries exactly what the flags say.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellJoin, submitterFlags } from '@rayjob/core';
import { fastTiming, startRayEmulator } from '@rayjob/ray-emulator';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { chooseAddress } from '../src/cli/address-precedence.ts';
import { parseDuration } from '../src/cli/durations.ts';
import { usage } from '../src/cli/usage.ts';
import { loadConfig, type SubmitterConfig } from '../src/cli/load-config.ts';
import { spawnSubmitter } from './support/process.ts';

const dir = mkdtempSync(join(tmpdir(), 'submitter-cli-'));
const yamlFile = join(dir, 'env.yaml');
writeFileSync(yamlFile, 'env_vars:\n  A: "1"\npip: [requests]\n');
const badYaml = join(dir, 'bad.yaml');
writeFileSync(badYaml, 'env_vars: [unclosed\n');
const listYaml = join(dir, 'list.yaml');
writeFileSync(listYaml, '- a\n- b\n');

const baseEnv = { RAY_DASHBOARD_ADDRESS: 'http://127.0.0.1:1', RAY_JOB_SUBMISSION_ID: 'job-1' };
const load = (argv: string[], env: Record<string, string> = baseEnv) => loadConfig({ argv, env, writable: () => false, parseYaml });
const config = (argv: string[], env: Record<string, string> = baseEnv): SubmitterConfig => {
  const loaded = load(argv, env);
  if (loaded.kind !== 'config') throw new Error(JSON.stringify(loaded));
  return loaded.config;
};

describe('usage errors name the flag and the problem', () => {
  it.each<{ argv: string[]; env?: Record<string, string>; names: string }>([
    { argv: ['--bogus', '--', 'x'], names: "'--bogus'" },
    { argv: ['--address'], names: "'--address" },
    { argv: ['--no-wait=yes', '--', 'x'], names: "'--no-wait'" },
    { argv: [], names: 'entrypoint' },
    { argv: ['--', ''], names: 'entrypoint' },
    { argv: ['--metadata-json', '{bad', '--', 'x'], names: '--metadata-json: is not valid JSON' },
    { argv: ['--metadata-json', '{"a": 1}', '--', 'x'], names: '--metadata-json: every value must be a string' },
    { argv: ['--metadata-json', '[]', '--', 'x'], names: '--metadata-json' },
    { argv: ['--runtime-env-json', '"str"', '--', 'x'], names: '--runtime-env-json: must be a JSON object' },
    { argv: ['--runtime-env-json', '{', '--', 'x'], names: '--runtime-env-json: is not valid JSON' },
    { argv: ['--runtime-env', join(dir, 'missing.yaml'), '--', 'x'], names: '--runtime-env: cannot read' },
    { argv: ['--runtime-env', badYaml, '--', 'x'], names: '--runtime-env: ' },
    { argv: ['--runtime-env', listYaml, '--', 'x'], names: '--runtime-env: ' },
    { argv: ['--runtime-env', yamlFile, '--runtime-env-json', '{}', '--', 'x'], names: '--runtime-env: give either' },
    { argv: ['--entrypoint-resources', '{"a": "1"}', '--', 'x'], names: '--entrypoint-resources: every value must be a number' },
    { argv: ['--entrypoint-num-cpus', 'two', '--', 'x'], names: '--entrypoint-num-cpus' },
    { argv: ['--entrypoint-num-gpus', '-1', '--', 'x'], names: '--entrypoint-num-gpus' },
    { argv: ['--entrypoint-memory', '1.5', '--', 'x'], names: '--entrypoint-memory' },
    { argv: ['--headers', '{"X-A": 1}', '--', 'x'], names: '--headers' },
    { argv: ['--headers', '{"Origin": "x"}', '--', 'x'], names: '--headers' },
    { argv: ['--headers', '{"X-A": "two\\nlines"}', '--', 'x'], names: '--headers' },
    { argv: ['--verify', join(dir, 'no-ca.pem'), '--', 'x'], names: '--verify' },
    { argv: ['--working-dir', './src', '--', 'x'], names: '--working-dir: "./src" is a local path' },
    { argv: ['--max-unreachable', '10 minutes', '--', 'x'], names: '--max-unreachable' },
    { argv: ['--health-timeout', '0s', '--', 'x'], names: '--health-timeout' },
    { argv: ['--driver-lost-after', 'soon', '--', 'x'], names: '--driver-lost-after' },
    { argv: ['--log-format', 'yaml', '--', 'x'], names: '--log-format: must be text or json' },
    { argv: ['--submission-id', 'other', '--', 'x'], names: '--submission-id: "other" contradicts RAY_JOB_SUBMISSION_ID' },
    { argv: ['--address', 'ftp://x', '--', 'x'], env: { RAY_JOB_SUBMISSION_ID: 'j' }, names: '--address: address scheme' },
    { argv: ['--', 'x'], env: { RAY_JOB_SUBMISSION_ID: 'j' }, names: '--address: no dashboard address' },
    { argv: ['--', 'x'], env: { ...baseEnv, RAY_JOB_HEADERS: '{nope' }, names: 'RAY_JOB_HEADERS: is not valid JSON' },
    { argv: ['--', 'x'], env: { ...baseEnv, RAY_AUTH_TOKEN_PATH: join(dir, 'no-token') }, names: 'RAY_AUTH_TOKEN_PATH' },
    { argv: ['--', 'x'], env: { ...baseEnv, RAYJOB_SUBMITTER_ATTACH_ONLY: 'yes' }, names: 'RAYJOB_SUBMITTER_ATTACH_ONLY: "yes" is neither true nor false' },
    { argv: ['--attach-only=false', '--', 'x'], names: "'--attach-only'" },
    { argv: ['--attach-only', '--', 'x'], env: { RAY_DASHBOARD_ADDRESS: 'http://127.0.0.1:1' }, names: '--attach-only: needs the submission ID of the job to follow: pass --submission-id ID' },
    { argv: ['--', 'x'], env: { RAY_DASHBOARD_ADDRESS: 'http://127.0.0.1:1', RAYJOB_SUBMITTER_ATTACH_ONLY: 'true' }, names: 'RAYJOB_SUBMITTER_ATTACH_ONLY: needs the submission ID' },
    { argv: ['--expected-head-ip', 'head-0.svc', '--', 'x'], names: '--expected-head-ip: "head-0.svc" is not an IP address: pass the head pod\'s IP' },
    { argv: ['--expected-head-ip', '10.0.0.256', '--', 'x'], names: '--expected-head-ip: "10.0.0.256" is not an IP address' },
    { argv: ['--', 'x'], env: { ...baseEnv, RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: '10.0.0' }, names: 'RAYJOB_SUBMITTER_EXPECTED_HEAD_IP: "10.0.0" is not an IP address' },
  ])('$names ($argv)', ({ argv, env, names }) => {
    const loaded = load(argv, env ?? baseEnv);
    expect(loaded.kind).toBe('usage-error');
    expect(loaded.kind === 'usage-error' && loaded.message).toContain(names);
  });

  it('a malformed --headers value is never echoed (it may hold a credential)', () => {
    const loaded = load(['--headers', '{"Authorization": "Bearer SECRET-abc123', '--', 'x']);
    expect(loaded.kind === 'usage-error' && loaded.message).toMatch(/^--headers: is not valid JSON/);
    expect(JSON.stringify(loaded)).not.toMatch(/"message":"[^"]*SECRET-abc123/);
  });

  it.each<{ argv: string[]; env: Record<string, string>; says: string }>([
    { argv: ['--metadata-json', '{"a": 1}', '--', 'echo hi'], env: { RAY_JOB_SUBMISSION_ID: 'never' }, says: '--metadata-json: every value must be a string' },
    { argv: ['--attach-only', '--', 'echo hi'], env: {}, says: '--attach-only: needs the submission ID' },
    { argv: ['--expected-head-ip', 'not-an-ip', '--', 'echo hi'], env: { RAY_JOB_SUBMISSION_ID: 'never' }, says: '--expected-head-ip: "not-an-ip" is not an IP address' },
  ])('a usage error ($says) exits 2 as a process, before any request reaches the dashboard', async ({ argv, env, says }) => {
    const emulator = await startRayEmulator({ timing: fastTiming });
    try {
      const proc = spawnSubmitter(argv, { RAY_DASHBOARD_ADDRESS: emulator.url, ...env });
      const { code } = await proc.waitForExit();
      expect(code).toBe(2);
      expect(proc.stderr()).toContain(says);
      expect(emulator.requests()).toHaveLength(0);
    } finally {
      await emulator.stop();
    }
  });

  it.each([
    { flag: '--help', expected: 'Exit codes:' },
    { flag: '--version', expected: 'ray-job-submitter 0.1.0' },
  ])('$flag prints to stdout and exits 0', async ({ flag, expected }) => {
    const proc = spawnSubmitter([flag], {});
    expect((await proc.waitForExit()).code).toBe(0);
    expect(proc.stdout()).toContain(expected);
  });
});

describe('--help says which flag bounds which phase', () => {
  const [beforeHealthy = '', afterHealthy = ''] = usage.split('2. Submitting or attaching');
  const flagLine = (text: string, flag: string) => text.split('\n').filter((l) => l.trimStart().startsWith(flag)).join('\n');
  it('the GCS wait is bounded by --health-timeout only, and says that --max-unreachable does not bound it', () => {
    expect(flagLine(beforeHealthy, '--health-timeout')).not.toBe('');
    expect(flagLine(beforeHealthy, '--max-unreachable')).toBe('');
    expect(beforeHealthy).toContain('--max-unreachable does not bound this phase');
  });
  it('--max-unreachable and --driver-lost-after bound the phases after GCS answered', () => {
    expect(flagLine(afterHealthy, '--max-unreachable')).not.toBe('');
    expect(flagLine(afterHealthy, '--driver-lost-after')).not.toBe('');
  });
  it('every flag of the contract is documented', () => {
    for (const flag of Object.keys(submitterFlags)) expect(usage).toContain(`--${flag}`);
  });
});

describe('the config carries what the flags say', () => {
  it('KubeRay light-weight submitter flags and env', () => {
    const c = config(
      [
        '--runtime-env-json', '{"env_vars":{"A":"1"}}', '--metadata-json', '{"team":"ml"}',
        '--entrypoint-resources', '{"accel":1}', '--entrypoint-num-cpus', '1.000000', '--entrypoint-num-gpus', '0.5',
        '--', 'python main.py; echo done',
      ],
      { ...baseEnv, RAY_AUTH_TOKEN: 'tok-123456' },
    );
    expect(c).toMatchObject({
      baseUrl: 'http://127.0.0.1:1',
      addressSource: 'RAY_DASHBOARD_ADDRESS',
      submissionId: 'job-1',
      token: 'tok-123456',
      noWait: false,
      attachOnly: false,
      maxUnreachableMs: 600_000,
      healthTimeoutMs: undefined,
      driverLostAfterMs: 30_000,
      logFormat: 'text',
      terminationLog: undefined,
      request: {
        entrypoint: 'python main.py; echo done',
        runtime_env: { env_vars: { A: '1' } },
        metadata: { team: 'ml' },
        entrypoint_resources: { accel: 1 },
        entrypoint_num_cpus: 1,
        entrypoint_num_gpus: 0.5,
      },
    });
  });

  it('ray job submit flags: YAML runtime env, remote working dir, memory, headers, verify, several entrypoint words', () => {
    const c = config([
      '--address', '127.0.0.1:8265/', '--submission-id', 'job-1', '--no-wait', '--runtime-env', yamlFile,
      '--working-dir', 's3://bucket/code.zip', '--entrypoint-memory', '1024', '--headers', '{"X-Team":"ml"}',
      '--verify', 'false', '--termination-log', '/tmp/x', '--log-format', 'json', '--max-unreachable', '1h30m',
      '--health-timeout', '90', '--driver-lost-after', '500ms', '--', 'python', 'a b.py', "it's",
    ]);
    expect(c).toMatchObject({
      baseUrl: 'http://127.0.0.1:8265',
      addressSource: '--address',
      noWait: true,
      attachOnly: false,
      headers: { 'X-Team': 'ml' },
      tls: { verify: false },
      terminationLog: { path: '/tmp/x', required: true },
      logFormat: 'json',
      maxUnreachableMs: 5_400_000,
      healthTimeoutMs: 90_000,
      driverLostAfterMs: 500,
      request: {
        entrypoint: shellJoin(['python', 'a b.py', "it's"]),
        runtime_env: { env_vars: { A: '1' }, pip: ['requests'], working_dir: 's3://bucket/code.zip' },
        entrypoint_memory: 1024,
      },
    });
  });

  it.each([
    { name: 'in a pod, writable: the default', env: { KUBERNETES_SERVICE_HOST: '10.96.0.1' }, argv: [], writable: true, expected: { path: '/dev/termination-log', required: false } },
    { name: 'in a pod, not writable: none', env: { KUBERNETES_SERVICE_HOST: '10.96.0.1' }, argv: [], writable: false, expected: undefined },
    { name: 'outside a pod, even where the host\'s /dev/termination-log is writable: none', env: {}, argv: [], writable: true, expected: undefined },
    { name: 'outside a pod with --termination-log: that path, required', env: {}, argv: ['--termination-log', '/tmp/x'], writable: false, expected: { path: '/tmp/x', required: true } },
  ])('the termination log $name', ({ env, argv, writable, expected }) => {
    const loaded = loadConfig({ argv: [...argv, '--', 'x'], env: { ...baseEnv, ...env }, writable: (p) => writable && p === '/dev/termination-log' });
    expect(loaded.kind === 'config' && loaded.config.terminationLog).toEqual(expected);
  });

  it.each<{ argv: string[]; env: Record<string, string>; attachOnly: boolean }>([
    { argv: [], env: {}, attachOnly: false },
    { argv: ['--attach-only'], env: {}, attachOnly: true },
    { argv: [], env: { RAYJOB_SUBMITTER_ATTACH_ONLY: 'true' }, attachOnly: true },
    { argv: [], env: { RAYJOB_SUBMITTER_ATTACH_ONLY: 'false' }, attachOnly: false },
    { argv: ['--attach-only'], env: { RAYJOB_SUBMITTER_ATTACH_ONLY: 'false' }, attachOnly: true },
  ])('attach-only from $argv and $env: $attachOnly (either one turns it on)', ({ argv, env, attachOnly }) => {
    expect(config([...argv, '--', 'x'], { ...baseEnv, ...env }).attachOnly).toBe(attachOnly);
  });

  it('--headers wins over RAY_JOB_HEADERS; the token file is read when RAY_AUTH_TOKEN is unset', () => {
    const tokenFile = join(dir, 'token');
    writeFileSync(tokenFile, 'from-file-token\n');
    const c = config(['--headers', '{"X-A":"flag"}', '--', 'x'], {
      ...baseEnv,
      RAY_JOB_HEADERS: '{"X-A":"env"}',
      RAY_AUTH_TOKEN_PATH: tokenFile,
    });
    expect(c.headers).toEqual({ 'X-A': 'flag' });
    expect(c.token).toBe('from-file-token');
    expect(c.secrets).toEqual(expect.arrayContaining(['from-file-token', 'flag']));
  });
});

describe('address precedence is Ray CLI order, then KubeRay env', () => {
  it.each([
    { flag: 'f', env: { RAY_API_SERVER_ADDRESS: 'api', RAY_ADDRESS: 'ra', RAY_DASHBOARD_ADDRESS: 'd' }, wins: 'RAY_API_SERVER_ADDRESS' },
    { flag: 'f', env: { RAY_API_SERVER_ADDRESS: '', RAY_ADDRESS: 'ra', RAY_DASHBOARD_ADDRESS: 'd' }, wins: 'RAY_ADDRESS' },
    { flag: 'f', env: { RAY_ADDRESS: ' ', RAY_DASHBOARD_ADDRESS: 'd' }, wins: '--address' },
    { flag: undefined, env: { RAY_DASHBOARD_ADDRESS: 'd' }, wins: 'RAY_DASHBOARD_ADDRESS' },
    { flag: '', env: { RAY_DASHBOARD_ADDRESS: '' }, wins: undefined },
  ])('$wins wins', ({ flag, env, wins }) => {
    expect(chooseAddress({ flag, env })?.source).toBe(wins);
  });
});

describe('durations', () => {
  it.each([
    ['30s', 30_000], ['10m', 600_000], ['1h', 3_600_000], ['1h30m', 5_400_000], ['500ms', 500], ['45', 45_000],
    ['2.5', 2_500], ['1.5s', 1_500],
  ])('%s is %i ms', (text, ms) => {
    expect(parseDuration(text)).toEqual({ ok: true, ms });
  });
  it.each(['', '0', '0s', '-1s', '10 m', '1d', 'm', '1h 30m', 'forever'])('"%s" is refused', (text) => {
    expect(parseDuration(text).ok).toBe(false);
  });
});
