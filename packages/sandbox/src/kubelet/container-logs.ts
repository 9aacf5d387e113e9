// GET /containerLogs/{namespace}/{pod}/{container} on the kubelet's endpoint: a container's log file (see
// log-paths.ts), with tailLines, limitBytes, previous and follow (the stream ends when the container stops, the
// pod goes, or the client leaves). The API server proxies `pods/log` here, as kube-apiserver does.
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import type { ContainerStatus } from '../kube-objects/types.ts';
import { podLogPath } from './log-paths.ts';

export interface LogTarget {
  namespace: string;
  pod: string;
  container: string;
  /** The container's status as last reported (undefined before the first report). */
  status: ContainerStatus | undefined;
  /** Whether the container (this run) may still write: follow keeps reading while it does. */
  running(): boolean;
}

/** Why a container has no logs to show, worded as the kubelet's validateContainerLogStatus; undefined if it has. */
export function containerLogProblem(status: ContainerStatus | undefined, pod: string, container: string, previous: boolean): string | undefined {
  const what = `container "${container}" in pod "${pod}"`;
  const { state, lastState } = status ?? { state: {}, lastState: {} };
  if (previous) return lastState.terminated === undefined ? `previous terminated ${what} not found` : undefined;
  if (state.running !== undefined || state.terminated !== undefined || lastState.terminated !== undefined) return undefined;
  if (state.waiting !== undefined) {
    const reason = state.waiting.reason ?? '';
    if (reason === 'ErrImagePull') return `${what} is waiting to start: image can't be pulled`;
    if (reason === 'ImagePullBackOff') return `${what} is waiting to start: trying and failing to pull image`;
    return `${what} is waiting to start: ${reason}`;
  }
  return `${what} is waiting to start - no logs yet`;
}

function tail(text: string, lines: number): string {
  const parts = text.split('\n');
  const trailing = parts[parts.length - 1] === '' ? parts.pop() : undefined;
  const kept = parts.slice(Math.max(0, parts.length - lines));
  return kept.join('\n') + (trailing !== undefined && kept.length > 0 ? '\n' : '');
}

export async function serveContainerLog(dir: string, target: LogTarget, query: URLSearchParams, res: ServerResponse): Promise<void> {
  const previous = query.get('previous') === 'true';
  const file = podLogPath(dir, target.namespace, target.pod, target.container, previous);
  const problem = containerLogProblem(target.status, target.pod, target.container, previous);
  if (problem !== undefined) {
    res.writeHead(400, { 'Content-Type': 'text/plain' });
    res.end(problem);
    return;
  }
  const tailLines = query.get('tailLines');
  const limitBytes = query.get('limitBytes');
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  const content = existsSync(file) ? await readFile(file) : Buffer.alloc(0);
  let text = content.toString('utf8');
  if (tailLines !== null) text = tail(text, Number(tailLines));
  if (limitBytes !== null) text = text.slice(0, Number(limitBytes));
  res.write(text);
  if (query.get('follow') !== 'true' || previous) {
    res.end();
    return;
  }
  // Continue exactly after the bytes already read: the file may have grown since (a stat here would skip them).
  let offset = content.length;
  let closed = false;
  res.on('close', () => { closed = true; });
  const timer = setInterval(() => {
    if (closed) { clearInterval(timer); return; }
    const size = existsSync(file) ? statSync(file).size : 0;
    const done = !target.running();
    if (size > offset) {
      const stream = createReadStream(file, { start: offset, end: size - 1 });
      offset = size;
      stream.on('data', (chunk) => res.write(chunk));
      stream.on('end', () => { if (done) { clearInterval(timer); res.end(); } });
    } else if (done) {
      clearInterval(timer);
      res.end();
    }
  }, 100);
}
