import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '@rayjob/kube-runtime';
import { programRoots } from '../../src/kubelet/container-process.ts';
import { podLogPath } from '../../src/kubelet/log-paths.ts';
import { hostPathProblem } from '../../src/kubelet/volumes.ts';
import { createPod, startHarness, waitFor, waitForPhase } from './harness.ts';
import type { Harness } from './harness.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.client.create(resources.configmaps, { metadata: { name: 'settings' }, data: { mode: 'fast', 'app.conf': 'level=3\n' } }, { namespace: 'default' });
  await h.client.create(resources.secrets, { metadata: { name: 'creds' }, data: { password: Buffer.from('s3cret').toString('base64') } }, { namespace: 'default' });
});
afterAll(async () => {
  await h.stop();
  // Mount points the kubelet created on the host for this file's made-up paths (empty directories/files).
  for (const path of ['/etc/rayjob-test', '/etc/rayjob-creds', '/scratch-rayjob', '/opt-msg', '/state-rayjob', hostState]) rmSync(path, { recursive: true, force: true });
});

/** A node path for the hostPath test (this machine is the node). */
const hostState = join('/tmp', `rayjob-hostpath-test-${process.pid}`);

const log = (pod: string, container = 'main'): string => readFileSync(podLogPath(h.dir, 'default', pod, container), 'utf8');

describe('container environment and files', () => {
  it('hostPath volumes are the node\'s own paths: DirectoryOrCreate creates it, what a pod writes there outlives the pod, a wrong type fails the mount', async () => {
    const spec = (name: string, type: string, command: string): Parameters<typeof createPod>[1] => ({
      metadata: { name },
      spec: { restartPolicy: 'Never', volumes: [{ name: 'state', hostPath: { path: hostState, type } }],
        containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', command], volumeMounts: [{ name: 'state', mountPath: '/state-rayjob' }] }] },
    });
    await createPod(h.client, spec('writer', 'DirectoryOrCreate', 'echo from-first-pod > /state-rayjob/note'));
    expect((await waitForPhase(h.client, 'writer', ['Succeeded', 'Failed'])).status?.phase).toBe('Succeeded');
    expect(readFileSync(join(hostState, 'note'), 'utf8')).toBe('from-first-pod\n');
    await createPod(h.client, spec('reader', 'Directory', 'cat /state-rayjob/note'));
    await waitForPhase(h.client, 'reader', ['Succeeded', 'Failed']);
    expect(log('reader')).toBe('from-first-pod\n');
    // A type that does not match what is there fails the mount (the kubelet retries, as after FailedMount).
    expect(hostPathProblem({ path: hostState, type: 'File' })).toBe(`hostPath type check failed: ${hostState} is not a file`);
    expect(hostPathProblem({ path: join(hostState, 'absent'), type: 'Directory' })).toBe(`hostPath type check failed: ${join(hostState, 'absent')} is not a directory`);
  });

  it('resolves env from values, ConfigMap and Secret keys, field refs, and envFrom with a prefix', async () => {
    await createPod(h.client, {
      metadata: { name: 'env', labels: { app: 'demo' } },
      spec: { restartPolicy: 'Never', containers: [{
        name: 'main', image: 'node',
        args: ['-e', 'const k=["PLAIN","MODE","PASSWORD","POD","NS","UID","NODE","APP","CFG_mode"]; console.log(JSON.stringify(Object.fromEntries(k.map(x=>[x,process.env[x]]))))'],
        envFrom: [{ prefix: 'CFG_', configMapRef: { name: 'settings' } }],
        env: [
          { name: 'PLAIN', value: 'v' },
          { name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode' } } },
          { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } },
          { name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
          { name: 'NS', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
          { name: 'UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
          { name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
          { name: 'APP', valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } },
        ],
      }] },
    });
    const pod = await waitForPhase(h.client, 'env', ['Succeeded', 'Failed']);
    expect(JSON.parse(log('env'))).toEqual({ PLAIN: 'v', MODE: 'fast', PASSWORD: 's3cret', POD: 'env', NS: 'default', UID: pod.metadata.uid, NODE: 'sandbox-node', APP: 'demo', CFG_mode: 'fast' });
  });

  it('a missing Secret key leaves the container waiting with CreateContainerConfigError', async () => {
    await createPod(h.client, { metadata: { name: 'missing-secret' }, spec: { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox', command: ['true'],
      env: [{ name: 'X', valueFrom: { secretKeyRef: { name: 'nope', key: 'k' } } }] }] } });
    const waiting = await waitFor('CreateContainerConfigError', async () => {
      const result = await h.client.get<import('../../src/kube-objects/types.ts').Pod>(resources.pods, { namespace: 'default', name: 'missing-secret' });
      const state = result.ok ? result.value.status?.containerStatuses?.[0]?.state.waiting : undefined;
      return state?.reason === 'CreateContainerConfigError' ? state : undefined;
    });
    expect(waiting.message).toBe('secret "nope" not found');
  });

  it('mounts configMap, secret, emptyDir and projected service-account volumes at their real paths', async () => {
    await createPod(h.client, {
      metadata: { name: 'volumes' },
      spec: {
        restartPolicy: 'Never',
        volumes: [
          { name: 'cfg', configMap: { name: 'settings' } },
          { name: 'sec', secret: { secretName: 'creds' } },
          { name: 'scratch', emptyDir: {} },
          { name: 'kube-api-access', projected: { sources: [
            { serviceAccountToken: { path: 'token', expirationSeconds: 3607 } },
            { downwardAPI: { items: [{ path: 'namespace', fieldRef: { fieldPath: 'metadata.namespace' } }] } },
          ] } },
        ],
        containers: [{
          name: 'main', image: 'busybox',
          command: ['sh', '-c', 'cat /etc/rayjob-test/app.conf; cat /etc/rayjob-creds/password; echo; echo hi > /scratch-rayjob/f && cat /scratch-rayjob/f; cat /var/run/secrets/kubernetes.io/serviceaccount/namespace; echo; test -s /var/run/secrets/kubernetes.io/serviceaccount/token && echo token-ok'],
          volumeMounts: [
            { name: 'cfg', mountPath: '/etc/rayjob-test' },
            { name: 'sec', mountPath: '/etc/rayjob-creds', readOnly: true },
            { name: 'scratch', mountPath: '/scratch-rayjob' },
            { name: 'kube-api-access', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true },
          ],
        }],
      },
    });
    const pod = await waitForPhase(h.client, 'volumes', ['Succeeded', 'Failed']);
    expect(log('volumes')).toBe('level=3\ns3cret\nhi\ndefault\ntoken-ok\n');
    expect(pod.status?.phase).toBe('Succeeded');
  });

  it('mounts one ConfigMap key as a file with subPath', async () => {
    await createPod(h.client, {
      metadata: { name: 'subpath-file' },
      spec: {
        restartPolicy: 'Never',
        volumes: [{ name: 'cfg', configMap: { name: 'settings' } }],
        containers: [{ name: 'main', image: 'busybox', command: ['sh', '-c', 'cat /tmp/conf/app.conf'], volumeMounts: [{ name: 'cfg', mountPath: '/tmp/conf/app.conf', subPath: 'app.conf' }] }],
      },
    });
    const pod = await waitForPhase(h.client, 'subpath-file', ['Succeeded', 'Failed']);
    expect(log('subpath-file')).toBe('level=3\n');
    expect(pod.status?.phase).toBe('Succeeded');
  });

  it('gives every container its own /dev/termination-log and reports what each wrote', async () => {
    await createPod(h.client, {
      metadata: { name: 'messages' },
      spec: { restartPolicy: 'Never', containers: [
        { name: 'one', image: 'busybox', command: ['sh', '-c', 'printf first > /dev/termination-log; sleep 0.3; exit 1'] },
        { name: 'two', image: 'busybox', command: ['sh', '-c', 'sleep 0.1; printf second > /dev/termination-log'] },
        { name: 'three', image: 'busybox', command: ['sh', '-c', 'printf custom > /tmp/rayjob-msg-$$ && cat /tmp/rayjob-msg-$$ > /opt-msg/m; rm /tmp/rayjob-msg-$$'], terminationMessagePath: '/opt-msg/m' },
        { name: 'four', image: 'busybox', command: ['sh', '-c', 'echo line1; echo last words; exit 2'], terminationMessagePolicy: 'FallbackToLogsOnError' },
      ] },
    });
    const pod = await waitForPhase(h.client, 'messages', ['Failed']);
    const byName = Object.fromEntries((pod.status?.containerStatuses ?? []).map((s) => [s.name, s.state.terminated]));
    expect(byName.one).toMatchObject({ exitCode: 1, message: 'first' });
    expect(byName.two).toMatchObject({ exitCode: 0, message: 'second' });
    expect(byName.three).toMatchObject({ exitCode: 0, message: 'custom' });
    expect(byName.four).toMatchObject({ exitCode: 2, message: 'line1\nlast words\n' });
  });

  it('gives each container a private /tmp, with volumes mounted under it', async () => {
    // The reader waits (bounded, 30 s) for the writer's file, which appears whole by rename: a fixed sleep raced the
    // writer's start on a loaded machine.
    const marker = `rayjob-private-${Date.now()}`;
    const created = await createPod(h.client, { metadata: { name: 'tmp' }, spec: { restartPolicy: 'Never', volumes: [{ name: 'logs', emptyDir: {} }], containers: [
      { name: 'writer', image: 'busybox', command: ['sh', '-c', `echo private > /tmp/${marker} && echo shared > /tmp/ray/out.part && mv /tmp/ray/out.part /tmp/ray/out && ls /tmp`], volumeMounts: [{ name: 'logs', mountPath: '/tmp/ray' }] },
      { name: 'reader', image: 'busybox', command: ['sh', '-c', `i=0; while [ ! -e /tmp/ray/out ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done; cat /tmp/ray/out; test -e /tmp/${marker} && echo leaked || echo isolated`], volumeMounts: [{ name: 'logs', mountPath: '/tmp/ray' }] },
    ] } });
    await waitForPhase(h.client, 'tmp', ['Succeeded']);
    // Program roots that live under /tmp (a CI checkout) stay visible at their host paths; nothing else shows.
    const kept = programRoots().filter((p) => p.startsWith('/tmp/')).map((p) => p.split('/')[2] ?? '');
    expect(log('tmp', 'writer').split('\n').sort()).toEqual(['', marker, 'ray', ...kept].sort());
    expect(log('tmp', 'reader')).toBe('shared\nisolated\n');
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(readFileSync(join(h.dir, 'kubelet', 'pods', created.metadata.uid ?? '', 'volumes', 'logs', 'out'), 'utf8')).toBe('shared\n');
  });
});
