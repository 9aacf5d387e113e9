// Test harness: a real API server on 127.0.0.1, kubectl as a real child process pointed at its
// kubeconfig, @kubernetes/client-node clients from the same kubeconfig, and a bounded poll.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as k8s from '@kubernetes/client-node';
import { afterAll, beforeAll } from 'vitest';
import { eventually as awaitCondition } from '@rayjob/test-support';
import { createKubeClient } from '@rayjob/kube-runtime';
import { startApiServer, type ApiServer, type ApiServerOptions } from '../src/index.ts';
import { startJobController, type JobController } from '../src/job-controller/controller.ts';

/** Response bodies in tests are read loosely; assertions pin their shape. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Harness {
  server: ApiServer;
  kc: k8s.KubeConfig;
  core: k8s.CoreV1Api;
  batch: k8s.BatchV1Api;
  custom: k8s.CustomObjectsApi;
  kubectl(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }>;
  stop(): Promise<void>;
}

export async function startHarness(options: ApiServerOptions = {}): Promise<Harness> {
  const dir = await mkdtemp(join(tmpdir(), 'sandbox-test-'));
  const server = await startApiServer({ ...options, dir });
  const kc = new k8s.KubeConfig();
  kc.loadFromFile(server.kubeconfigPath);
  const kubectl = (args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      const child = execFile(
        'kubectl',
        args,
        { env: { ...process.env, KUBECONFIG: server.kubeconfigPath, KUBECACHEDIR: join(dir, 'kubectl-cache'), HOME: dir }, timeout: 15_000 },
        (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
      );
      if (stdin !== undefined) child.stdin?.end(stdin);
    });
  return {
    server,
    kc,
    core: kc.makeApiClient(k8s.CoreV1Api),
    batch: kc.makeApiClient(k8s.BatchV1Api),
    custom: kc.makeApiClient(k8s.CustomObjectsApi),
    kubectl,
    stop: async () => {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The test file's harness: started before its tests, stopped after them (what `alongside` started, first). It
 * reads through to the running harness, so the file's tests use it as a plain Harness.
 */
export function useHarness(options: ApiServerOptions = {}, alongside?: (h: Harness) => Promise<{ stop(): Promise<void> }>): Harness {
  let current: Harness | undefined;
  let companion: { stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    current = await startHarness(options);
    companion = await alongside?.(current);
  });
  afterAll(async () => {
    await companion?.stop();
    await current?.stop();
  });
  return new Proxy({} as Harness, {
    get: (_, key) => {
      if (current === undefined) throw new Error('the harness runs only while the file\'s tests do');
      return Reflect.get(current, key);
    },
  });
}

/**
 * Poll until `check` returns a value other than undefined/false, or fail after `ms`. The pause grows from 20 ms to
 * 250 ms, as the kubelet harness's does: a check may be a kubectl process (~0.15 CPU-s each), and no test here asserts
 * how soon a wait ends (a condition met before the bound is still seen: the bound is tested after a failed check).
 */
export const eventually = <T>(check: () => T | undefined | false | Promise<T | undefined | false>, ms = 5000, what = 'condition'): Promise<T> =>
  awaitCondition(check, { what, withinMs: ms, everyMs: 20, maxEveryMs: 250 });

/** Raw HTTP against the server (for status codes and bodies exactly as sent). */
export async function http(
  server: ApiServer,
  method: string,
  path: string,
  body?: unknown,
  contentType = 'application/json',
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; text: string; headers: Headers }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...(body !== undefined && { 'Content-Type': contentType }), ...headers },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, text, headers: res.headers };
}

/** Read a watch stream's events until `until` says stop (or the deadline passes). */
export async function readWatch(
  server: ApiServer,
  path: string,
  until: (events: Array<{ type: string; object: Json }>) => boolean,
  ms = 5000,
): Promise<{ status: number; events: Array<{ type: string; object: Json }> }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  const res = await fetch(`${server.url}${path}`, { signal: controller.signal });
  const events: Array<{ type: string; object: Json }> = [];
  if (res.status !== 200 || !res.body) {
    clearTimeout(timer);
    await res.text();
    return { status: res.status, events };
  }
  const decoder = new TextDecoder();
  let buf = '';
  try {
    for await (const chunk of res.body) {
      buf += decoder.decode(chunk as Uint8Array, { stream: true });
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        if (line.trim()) events.push(JSON.parse(line));
      }
      if (until(events)) break;
    }
  } catch {
    // aborted at the deadline: return what arrived
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
  return { status: res.status, events };
}

export const widgetsCrd = join(import.meta.dirname, 'fixtures', 'widgets-crd.yaml');

/** A minimal pod in `default`, created through client-node. */
export const makePod = (h: Harness, name: string) =>
  h.core.createNamespacedPod({ namespace: 'default', body: { metadata: { name }, spec: { containers: [{ name, image: 'busybox' }] } } });

/** The column names of `kubectl get` output (columns are separated by two or more spaces). */
export const tableHeader = (out: string): string[] => (out.split('\n')[0] ?? '').trim().split(/\s{2,}/);

/** The Job controller beside a harness, fast backoffs, errors kept quiet: for admission tests of Job pods. */
export const startTestJobController = async (h: Harness): Promise<JobController> =>
  startJobController({ client: await createKubeClient({ server: h.server.url }), timing: { backoffBaseMs: 50, backoffMaxMs: 200 }, onError: () => {} });
