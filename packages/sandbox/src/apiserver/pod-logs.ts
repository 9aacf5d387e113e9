// GET pods/{name}/log, served from files the kubelet writes.
//
// FILE LAYOUT (contract with src/kubelet, which imports podLogPath): under the sandbox dir,
//   <dir>/pods/<namespace>/<pod-name>/<container-name>.log           current run's stdout+stderr, appended
//   <dir>/pods/<namespace>/<pod-name>/<container-name>.previous.log  the run before the last restart (?previous=true)
// Lines are written as the program prints them (no timestamps added).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import type { KubeObject } from '../store/types.ts';
import type { ApiContext } from './context.ts';
import { badRequest, notFound } from './status.ts';

export function podLogPath(dir: string, namespace: string, pod: string, container: string, previous = false): string {
  return join(dir, 'pods', namespace, pod, `${container}${previous ? '.previous' : ''}.log`);
}

type Obj = Record<string, unknown>;

function containerNames(pod: KubeObject): string[] {
  const spec = (pod.spec ?? {}) as Obj;
  return [...((spec.containers as Obj[]) ?? []), ...((spec.initContainers as Obj[]) ?? [])].map((c) => String(c.name));
}

function isTerminated(pod: KubeObject | undefined, container: string): boolean {
  if (!pod) return true;
  const status = (pod.status ?? {}) as Obj;
  if (status.phase === 'Succeeded' || status.phase === 'Failed') return true;
  const all = [...((status.containerStatuses as Obj[]) ?? []), ...((status.initContainerStatuses as Obj[]) ?? [])];
  const cs = all.find((c) => c.name === container);
  return Boolean(cs && (cs.state as Obj | undefined)?.terminated);
}

function tail(text: string, lines: number): string {
  const parts = text.split('\n');
  const trailing = parts[parts.length - 1] === '' ? parts.pop() : undefined;
  const kept = parts.slice(Math.max(0, parts.length - lines));
  return kept.join('\n') + (trailing !== undefined && kept.length > 0 ? '\n' : '');
}

export async function servePodLog(ctx: ApiContext, res: ServerResponse, namespace: string, name: string, query: URLSearchParams): Promise<void> {
  const pod = ctx.store.get('/pods', namespace, name);
  if (!pod) throw notFound('pods', '', name);
  const names = containerNames(pod);
  let container = query.get('container') ?? undefined;
  if (!container) {
    const appContainers = (((pod.spec ?? {}) as Obj).containers as Obj[] | undefined) ?? [];
    if (appContainers.length !== 1) {
      throw badRequest(`a container name must be specified for pod ${name}, choose one of: [${appContainers.map((c) => String(c.name)).join(' ')}]`);
    }
    container = String(appContainers[0]?.name);
  }
  if (!names.includes(container)) throw badRequest(`container ${container} is not valid for pod ${name}`);
  const previous = query.get('previous') === 'true';
  const file = podLogPath(ctx.dir, namespace, name, container, previous);
  if (!existsSync(file)) {
    if (previous) throw badRequest(`previous terminated container "${container}" in pod "${name}" not found`);
    const phase = ((pod.status ?? {}) as Obj).phase;
    if (phase === 'Pending' || phase === undefined) throw badRequest(`container "${container}" in pod "${name}" is waiting to start: ContainerCreating`);
  }
  const tailLines = query.get('tailLines');
  const limitBytes = query.get('limitBytes');
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' });
  const content = existsSync(file) ? await readFile(file) : Buffer.alloc(0);
  let text = content.toString('utf8');
  if (tailLines !== null) text = tail(text, Number(tailLines));
  if (limitBytes !== null) text = text.slice(0, Number(limitBytes));
  res.write(text);
  if (query.get('follow') !== 'true' || previous) {
    res.end();
    return;
  }
  // Follow: poll the file for growth until the container ends, the pod goes away or the client leaves.
  // Continue exactly after the bytes already read: the file may have grown since (a stat here would skip them).
  let offset = content.length;
  let closed = false;
  res.on('close', () => {
    closed = true;
  });
  const timer = setInterval(() => {
    if (closed) {
      clearInterval(timer);
      return;
    }
    const size = existsSync(file) ? statSync(file).size : 0;
    const current = ctx.store.get('/pods', namespace, name);
    const done = isTerminated(current, container) || current?.metadata.uid !== pod.metadata.uid;
    if (size > offset) {
      const stream = createReadStream(file, { start: offset, end: size - 1 });
      offset = size;
      stream.on('data', (chunk) => res.write(chunk));
      stream.on('end', () => {
        if (done) {
          clearInterval(timer);
          res.end();
        }
      });
    } else if (done) {
      clearInterval(timer);
      res.end();
    }
  }, 100);
}
