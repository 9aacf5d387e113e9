// Runs one probe attempt: exec inside the container's mount and network namespaces with its env, HTTP
// GET against the pod IP (2xx/3xx pass), or a TCP connect. Each attempt is bounded by its timeout.
import { spawn } from 'node:child_process';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import type { Container, Probe } from '../kube-objects/types.ts';
import { enterContainerArgs } from './container-process.ts';

export interface ProbeTarget {
  podIP: string;
  env: Record<string, string>;
  container: Container;
  /** The container's main process: exec probes enter its mount and network namespaces. */
  pid: number | undefined;
  nsenterTool: string;
}

function portNumber(port: number | string, container: Container): number | undefined {
  if (typeof port === 'number') return port;
  const named = container.ports?.find((p) => p.name === port)?.containerPort;
  return named ?? (/^\d+$/.test(port) ? Number(port) : undefined);
}

function execProbe(command: string[], target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  // Like `kubectl exec`: the command sees the container's files (its /tmp, volumes) and network.
  const argv = target.pid !== undefined ? [target.nsenterTool, ...enterContainerArgs(target.pid), '--', ...command] : command;
  return new Promise((resolve) => {
    const child = spawn(argv[0] ?? 'false', argv.slice(1), { env: target.env, stdio: 'ignore', detached: true });
    const timer = setTimeout(() => { try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* gone */ } resolve(false); }, timeoutMs);
    child.on('error', () => { clearTimeout(timer); resolve(false); });
    child.on('exit', (code) => { clearTimeout(timer); resolve(code === 0); });
  });
}

/** The kubelet's probe User-Agent (`kube-probe/<major>.<minor>` of the node's version, see node-heartbeat.ts). */
export const probeUserAgent = 'kube-probe/1.32';

function httpProbe(probe: NonNullable<Probe['httpGet']>, target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  const port = portNumber(probe.port, target.container);
  if (port === undefined) return Promise.resolve(false);
  // Sent as the kubelet sends it (plain HTTP client, its User-Agent, `Accept: */*`, the probe's headers on
  // top), not with fetch: fetch adds Sec-Fetch-Mode, and Ray's dashboard agent answers 403 to browser-like requests.
  const headers: Record<string, string> = { 'User-Agent': probeUserAgent, Accept: '*/*' };
  for (const h of probe.httpHeaders ?? []) headers[h.name] = h.value;
  const https = (probe.scheme ?? 'HTTP').toUpperCase() === 'HTTPS';
  const options = { host: probe.host ?? target.podIP, port, path: probe.path ?? '/', method: 'GET', headers, timeout: timeoutMs };
  return new Promise((resolve) => {
    // The kubelet does not verify a probe's TLS certificate.
    const request = https ? httpsRequest({ ...options, rejectUnauthorized: false }) : httpRequest(options);
    const timer = setTimeout(() => request.destroy(), timeoutMs);
    request.on('response', (response) => {
      clearTimeout(timer);
      response.resume();
      const status = response.statusCode ?? 0;
      request.destroy();
      resolve(status >= 200 && status < 400);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => { clearTimeout(timer); resolve(false); });
    request.on('close', () => { clearTimeout(timer); resolve(false); });
    request.end();
  });
}

function tcpProbe(probe: NonNullable<Probe['tcpSocket']>, target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  const port = portNumber(probe.port, target.container);
  if (port === undefined) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = connect({ host: probe.host ?? target.podIP, port });
    const done = (ok: boolean): void => { socket.destroy(); resolve(ok); };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export function runProbe(probe: Probe, target: ProbeTarget, timeoutMs: number): Promise<boolean> {
  if (probe.exec !== undefined) return execProbe(probe.exec.command, target, timeoutMs);
  if (probe.httpGet !== undefined) return httpProbe(probe.httpGet, target, timeoutMs);
  if (probe.tcpSocket !== undefined) return tcpProbe(probe.tcpSocket, target, timeoutMs);
  return Promise.resolve(true);
}
