import { describe, expect, it } from 'vitest';
import type { ContainerStatus } from '../../src/kube-objects/types.ts';
import { expandVars } from '../../src/kubelet/expand-vars.ts';
import { containerArgv, lookupImage } from '../../src/kubelet/image-program.ts';
import { podConditions, podPhase } from '../../src/kubelet/pod-status.ts';
import { rayEmulatorImage, rayShimDir } from '../../src/images/ray-image.ts';
import { hostsFile, resolvConf } from '../../src/kubelet/pod-files.ts';

describe('expandVars', () => {
  const env: Record<string, string> = { A: 'alpha', B: 'b c' };
  const lookup = (name: string): string | undefined => env[name];
  it.each([
    ['$(A)', 'alpha'],
    ['x$(A)y', 'xalphay'],
    ['$(B)', 'b c'],
    ['$$(A)', '$(A)'],
    ['$$$(A)', '$alpha'],
    ['$(MISSING)', '$(MISSING)'],
    ['$A', '$A'],
    ['$(A', '$(A'],
    ['cost: $$5', 'cost: $5'],
    ['trailing $', 'trailing $'],
  ])('%s → %s', (input, output) => {
    expect(expandVars(input, lookup)).toBe(output);
  });
});

describe('containerArgv (Kubernetes command/args over ENTRYPOINT/CMD)', () => {
  const image = { entrypoint: ['/entry'], cmd: ['--default'] };
  it.each([
    { name: 'neither', container: {}, argv: ['/entry', '--default'] },
    { name: 'args only', container: { args: ['x'] }, argv: ['/entry', 'x'] },
    { name: 'command only drops CMD', container: { command: ['/bin/true'] }, argv: ['/bin/true'] },
    { name: 'both', container: { command: ['run'], args: ['$(V)', 'a b; c'] }, argv: ['run', 'v', 'a b; c'] },
  ])('$name', ({ container, argv }) => {
    expect(containerArgv(image, container, { V: 'v' })).toEqual(argv);
  });
});

describe('lookupImage', () => {
  const catalog = { 'rayproject/ray': { entrypoint: ['ray'] }, 'busybox:1.36': { entrypoint: ['sh'] } };
  it.each([
    ['rayproject/ray:2.55.1', ['ray']],
    ['rayproject/ray@sha256:abc', ['ray']],
    ['busybox:1.36', ['sh']],
    ['busybox:1.37', undefined],
    ['localhost:5000/rayproject/ray', undefined],
  ])('%s', (image, entrypoint) => {
    expect(lookupImage(catalog, image)?.entrypoint).toEqual(entrypoint);
  });
});

const status = (state: ContainerStatus['state'], lastState: ContainerStatus['lastState'] = {}): ContainerStatus =>
  ({ name: 'c', image: 'i', imageID: '', ready: false, restartCount: 0, state, lastState });
const running = status({ running: {} });
const ok = status({ terminated: { exitCode: 0 } });
const bad = status({ terminated: { exitCode: 1 } });
const creating = status({ waiting: { reason: 'ContainerCreating' } });
const backoff = status({ waiting: { reason: 'CrashLoopBackOff' } }, { terminated: { exitCode: 1 } });

describe('podPhase', () => {
  it.each([
    { policy: 'Never' as const, statuses: [creating], deleting: false, phase: 'Pending' },
    { policy: 'Never' as const, statuses: [running, ok], deleting: false, phase: 'Running' },
    { policy: 'Never' as const, statuses: [ok, ok], deleting: false, phase: 'Succeeded' },
    { policy: 'Never' as const, statuses: [ok, bad], deleting: false, phase: 'Failed' },
    { policy: 'OnFailure' as const, statuses: [bad], deleting: false, phase: 'Running' },
    { policy: 'OnFailure' as const, statuses: [ok], deleting: false, phase: 'Succeeded' },
    { policy: 'Always' as const, statuses: [ok], deleting: false, phase: 'Running' },
    { policy: 'Always' as const, statuses: [backoff], deleting: false, phase: 'Running' },
    { policy: 'Always' as const, statuses: [bad], deleting: true, phase: 'Failed' },
    { policy: 'Always' as const, statuses: [ok], deleting: true, phase: 'Succeeded' },
  ])('$policy $phase', ({ policy, statuses, deleting, phase }) => {
    expect(podPhase(policy, true, statuses, deleting)).toBe(phase);
  });

  it('is Pending until init containers finish', () => {
    expect(podPhase('Always', false, [running], false)).toBe('Pending');
  });
});

describe('podConditions', () => {
  it('keeps conditions it does not own and lists unready containers', () => {
    const conditions = podConditions({
      previous: [{ type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI' }],
      sandboxReady: true, initStatuses: [], initialized: true, statuses: [{ ...running, name: 'a' }, { ...running, name: 'b', ready: true }], phase: 'Running', nowIso: '2026-01-01T00:00:00Z',
    });
    expect(conditions.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [a]' });
    expect(conditions.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True' });
  });
});

describe('pod files', () => {
  it('resolv.conf has the Kubernetes search path and ndots:5', () => {
    expect(resolvConf('team', '10.244.1.1', 'cluster.local')).toBe('search team.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.244.1.1\noptions ndots:5\n');
  });
  it('hosts maps the pod hostname (and its subdomain FQDN) to the pod IP', () => {
    const text = hostsFile({ metadata: { name: 'p', namespace: 'ns' }, spec: { containers: [], hostname: 'h', subdomain: 'sub' } }, '10.244.1.5', 'cluster.local');
    expect(text).toContain('10.244.1.5\th.sub.ns.svc.cluster.local\th\n');
  });
});

describe('Ray image mapping', () => {
  const image = rayEmulatorImage({ emulatorCli: '/emu/cli.ts', node: '/bin/node', controlPort: 9999, jobCommand: ['/bin/submitter'], basePath: '/usr/bin' });
  it('puts the ray shim first on PATH and passes its settings through the environment', () => {
    expect(image.env).toEqual({ PATH: `${rayShimDir}:/usr/bin`, RAYJOB_EMULATOR_CLI: '/emu/cli.ts', RAYJOB_NODE: '/bin/node', RAYJOB_RAY_CONTROL_PORT: '9999', RAYJOB_RAY_JOB_COMMAND: '["/bin/submitter"]' });
  });
  it.each([
    { podIP: '10.244.1.5', expected: ['env', 'RAYJOB_NODE_IP=10.244.1.5', 'bash', '-lc', 'ray start --head --block'] },
    { podIP: '127.150.1.5', expected: ['env', 'RAYJOB_BIND_HOST=127.150.1.5', 'RAYJOB_NODE_IP=127.150.1.5', 'bash', '-lc', 'ray start --head --block'] },
  ])('argv for pod IP $podIP (the head reports it in /nodes)', ({ podIP, expected }) => {
    expect(image.rewrite?.(['bash', '-lc', 'ray start --head --block'], { podName: 'p', namespace: 'ns', podIP, containerName: 'c', env: {} })).toEqual(expected);
  });
  it('maps GCS health probes to the emulator dashboard and raylet probes to the shim\'s agent port, as HTTP GETs (no process per attempt)', () => {
    const raylet = ['bash', '-c', 'wget --tries 1 -T 2 -q -O- http://localhost:52366/api/local_raylet_healthz | grep success'];
    expect(image.rewriteProbe?.(raylet)).toEqual({ httpGet: { path: '/api/local_raylet_healthz', port: 52366 } });
    expect(image.rewriteProbe?.(['bash', '-c', `${raylet[2]} && wget -T 10 -q -O- http://localhost:8265/api/gcs_healthz | grep success`]))
      .toEqual({ httpGet: { path: '/api/gcs_healthz', port: 8265 } });
    // Anything else (a RayService worker's Serve check beside the raylet's, a user's own command) runs as written.
    const serve = ['bash', '-c', `${raylet[2]} && wget -T 10 -q -O- http://localhost:8000/-/healthz | grep success`];
    expect(image.rewriteProbe?.(serve)).toEqual(serve);
    expect(image.rewriteProbe?.(['cat', '/tmp/ready'])).toEqual(['cat', '/tmp/ready']);
  });
});
