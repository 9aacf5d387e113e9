// `kubectl exec` over SPDY/3.1, what a kube-apiserver speaks to a kubelet (it translates kubectl's WebSocket) and
// kubectl falls back to. The handshake names the protocol (X-Stream-Protocol-Version: the first the client offers
// that this side speaks); the client then opens one stream per channel, its `streamtype` header saying which: error,
// stdin, stdout, stderr, resize (v3+ with a TTY). Once all expected streams are open the command runs; the error
// stream carries the final Status, JSON in v4, only a failure's message in v1-v3; then the session closes.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { runCommand, type ExecRequest, type ExecTarget } from './remote-command.ts';
import { startSpdySession, type SpdyStream } from './spdy-session.ts';

/** What the kubelet accepts over SPDY, newest first (v5 is WebSocket-only). */
export const spdyRemoteCommandProtocols = ['v4.channel.k8s.io', 'v3.channel.k8s.io', 'v2.channel.k8s.io', 'channel.k8s.io'] as const;

/** How long the client has to open its streams (the kubelet's streamCreationTimeout). */
const streamCreationTimeoutMs = 30_000;

export const isSpdyUpgrade = (req: IncomingMessage): boolean => (req.headers.upgrade ?? '').toLowerCase().split(',').map((p) => p.trim()).includes('spdy/3.1');

/** The negotiated protocol, or the refusal as apimachinery's handshake words it. */
export function negotiateSpdyProtocol(req: IncomingMessage, supported: readonly string[]): { ok: true; protocol: string } | { ok: false; message: string } {
  const raw = req.headersDistinct['x-stream-protocol-version'] ?? [];
  const offered = raw.flatMap((v) => v.split(',')).map((v) => v.trim()).filter((v) => v !== '');
  if (offered.length === 0) return { ok: false, message: 'unable to upgrade: X-Stream-Protocol-Version is required' };
  const protocol = offered.find((p) => supported.includes(p));
  if (protocol === undefined) return { ok: false, message: `unable to upgrade: unable to negotiate protocol: client supports [${offered.join(' ')}], server accepts [${supported.join(' ')}]` };
  return { ok: true, protocol };
}

/** Writes the 101 answer of a SPDY upgrade. */
export function acceptSpdyUpgrade(socket: Duplex, protocol: string): void {
  socket.write(['HTTP/1.1 101 Switching Protocols', 'Connection: Upgrade', 'Upgrade: SPDY/3.1', `X-Stream-Protocol-Version: ${protocol}`, '', ''].join('\r\n'));
}

const statusText = (status: Record<string, unknown>, protocol: string): Buffer | undefined => {
  if (protocol === 'v4.channel.k8s.io') return Buffer.from(JSON.stringify({ metadata: {}, ...status }));
  return status.status === 'Success' ? undefined : Buffer.from(String(status.message ?? ''));
};

/** Serves one exec over an upgraded connection (the 101 already written); resolves when it is over. */
export function serveSpdyExec(socket: Duplex, head: Buffer, protocol: string, request: ExecRequest, target: ExecTarget): Promise<void> {
  const expected = 1 + Number(request.stdin) + Number(request.stdout) + Number(request.stderr) + Number(request.tty && protocol !== 'v2.channel.k8s.io' && protocol !== 'channel.k8s.io');
  const byType = new Map<string, SpdyStream>();
  let ready: () => void = () => {};
  const allOpen = new Promise<void>((resolve) => { ready = resolve; });
  const session = startSpdySession(socket, head, (stream) => {
    const type = stream.headers.streamtype?.[0] ?? '';
    byType.set(type, stream);
    // Nothing is read from these (resize would need a terminal); drain them so they never hold data.
    if (type !== 'stdin') stream.incoming.resume();
    if (byType.size === expected) ready();
  });
  const timer = setTimeout(() => session.close(), streamCreationTimeoutMs);
  return Promise.race([allOpen.then(() => true), session.closed.then(() => false)]).then(async (started) => {
    clearTimeout(timer);
    if (!started) return;
    const stdin = byType.get('stdin');
    await runCommand(request, target, {
      stdout: (data) => byType.get('stdout')?.write(data),
      stderr: (data) => byType.get('stderr')?.write(data),
      finish: (status) => {
        const error = byType.get('error');
        const text = statusText(status, protocol);
        if (text !== undefined) error?.write(text);
        for (const stream of byType.values()) stream.end();
        session.close();
      },
      ...(stdin !== undefined && { stdin: stdin.incoming }),
      gone: session.closed,
    });
  });
}
