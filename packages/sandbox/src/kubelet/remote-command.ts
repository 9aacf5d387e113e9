// `kubectl exec` on the kubelet. runCommand runs the command for any transport; runExecSession is the WebSocket
// remote-command protocol (v5.channel.k8s.io, v4.channel.k8s.io; SPDY is remote-command-spdy.ts).
// Every binary WebSocket message starts with a channel byte: 0 stdin, 1 stdout, 2 stderr, 3 the final Status (JSON), 4 terminal
// resize; v5 adds 255 <channel> from the client to close its stdin. The command runs inside the container's mount,
// network, UTS and PID namespaces (nsenter on the container's PID 1) with the container's environment, so
// `kubectl exec <pod> -- pkill -f <pattern>` reaches that container's processes only.
// Without a pseudo-terminal in Node, `tty` sessions run without one (output still streams; no resize).
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import type { WebSocket } from 'ws';
import { enterContainerArgs, resolveExecutable } from './container-process.ts';

export const remoteCommandProtocols = ['v5.channel.k8s.io', 'v4.channel.k8s.io'] as const;

const channel = { stdin: 0, stdout: 1, stderr: 2, error: 3, resize: 4, close: 255 } as const;

export interface ExecRequest {
  command: string[];
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

/** Parses the kubelet's exec query (`command` repeated, `input`/`output`/`error`/`tty` = 1 or true). */
export function parseExecQuery(query: URLSearchParams): ExecRequest {
  const flag = (name: string): boolean => ['1', 'true'].includes(query.get(name) ?? '');
  return { command: query.getAll('command'), stdin: flag('input'), stdout: flag('output'), stderr: flag('error'), tty: flag('tty') };
}

export interface ExecTarget {
  pid: number;
  env: Record<string, string>;
  nsenter: string;
}

/** The transport's side of one exec: where output goes, where input comes from, how the Status ends it. */
export interface ExecChannels {
  stdout(data: Buffer): void;
  stderr(data: Buffer): void;
  /** The final Status (as metav1.Status JSON fields); the transport sends it and closes. Called once. */
  finish(status: Record<string, unknown>): void;
  /** What the client writes to the command's stdin, when it asked for stdin. */
  stdin?: Readable;
  /** Resolves when the client has gone away (the command is then killed). */
  gone: Promise<void>;
}

/** Runs one exec over any transport (WebSocket channels, SPDY streams); resolves when it is over. */
export function runCommand(request: ExecRequest, target: ExecTarget, channels: ExecChannels): Promise<void> {
  const [program] = request.command;
  if (program === undefined) {
    channels.finish({ status: 'Failure', message: 'you must specify at least one command for the container', reason: 'BadRequest', code: 400 });
    return Promise.resolve();
  }
  if (resolveExecutable(program, target.env.PATH) === undefined) {
    channels.finish({
      status: 'Failure', reason: 'InternalError', code: 500,
      message: `Internal error occurred: error executing command in container: failed to exec in container: failed to start exec: OCI runtime exec failed: exec failed: unable to start container process: exec: "${program}": executable file not found in $PATH: unknown`,
    });
    return Promise.resolve();
  }
  const child = spawn(target.nsenter, [...enterContainerArgs(target.pid), '--', ...request.command], {
    env: target.env,
    stdio: [request.stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    // nsenter forks the command into the PID namespace: a group of their own lets a closed session end both.
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => { if (request.stdout) channels.stdout(chunk); });
  // With a TTY, stderr is folded into stdout as a terminal would show it.
  child.stderr?.on('data', (chunk: Buffer) => {
    if (request.tty && request.stdout) channels.stdout(chunk);
    else if (request.stderr) channels.stderr(chunk);
  });
  if (child.stdin !== null) {
    child.stdin.on('error', () => {});
    if (channels.stdin === undefined) child.stdin.end();
    else channels.stdin.pipe(child.stdin);
  }
  void channels.gone.then(() => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    try { process.kill(-(child.pid ?? 0), 'SIGKILL'); } catch { /* gone */ }
  });
  return new Promise((resolve) => {
    child.on('error', (error) => {
      channels.finish({ status: 'Failure', reason: 'InternalError', code: 500, message: `Internal error occurred: error executing command in container: ${error.message}` });
      resolve();
    });
    // 'close' (not 'exit'): every byte of stdout and stderr has been handed over before the Status.
    child.on('close', (code, signal) => {
      const exitCode = code ?? 128 + (signal === null ? 0 : 9);
      if (exitCode === 0) channels.finish({ status: 'Success' });
      else {
        channels.finish({
          status: 'Failure', reason: 'NonZeroExitCode',
          message: `command terminated with non-zero exit code: error executing command [${request.command.join(' ')}], exit code ${exitCode}`,
          details: { causes: [{ reason: 'ExitCode', message: String(exitCode) }] },
        });
      }
      resolve();
    });
  });
}

/** Runs one exec session over an accepted WebSocket; resolves when it is over. */
export function runExecSession(ws: WebSocket, request: ExecRequest, target: ExecTarget): Promise<void> {
  const send = (id: number, data: Buffer): void => {
    if (ws.readyState === ws.OPEN) ws.send(Buffer.concat([Buffer.from([id]), data]));
  };
  const stdin = request.stdin ? new PassThrough() : undefined;
  ws.on('message', (data: Buffer, isBinary: boolean) => {
    const bytes = isBinary ? data : Buffer.from(data.toString(), 'utf8');
    const id = bytes[0];
    if (id === channel.stdin) stdin?.write(bytes.subarray(1));
    if (id === channel.close && bytes[1] === channel.stdin) stdin?.end();
  });
  const gone = new Promise<void>((resolve) => ws.on('close', () => { stdin?.end(); resolve(); }));
  return runCommand(request, target, {
    stdout: (data) => send(channel.stdout, data),
    stderr: (data) => send(channel.stderr, data),
    finish: (body) => {
      const bytes = Buffer.concat([Buffer.from([channel.error]), Buffer.from(JSON.stringify({ metadata: {}, ...body }))]);
      if (ws.readyState === ws.OPEN) ws.send(bytes, () => ws.close(1000));
    },
    ...(stdin !== undefined && { stdin }),
    gone,
  });
}
