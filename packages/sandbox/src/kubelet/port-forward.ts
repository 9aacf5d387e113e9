// `kubectl port-forward` on the kubelet: protocol portforward.k8s.io over SPDY/3.1, reached either by a SPDY upgrade
// or by a WebSocket whose binary messages carry the SPDY session's bytes (subprotocol SPDY/3.1+portforward.k8s.io,
// what kubectl 1.32 tries first). For each local connection the client opens two streams sharing a `requestid`
// header and naming the `port`: `streamtype: error` and `streamtype: data`. The data stream is relayed to the port
// of the pod; a failure is written, in the kubelet's words, to the error stream. Both end with the connection.
// The pod is reached at its IP (from the node), so a listener bound to the pod's loopback only is not reachable.
import { connect } from 'node:net';
import type { Duplex } from 'node:stream';
import { startSpdySession, type SpdyStream } from './spdy-session.ts';

export const portForwardProtocol = 'portforward.k8s.io';
export const portForwardTunnelProtocol = `SPDY/3.1+${portForwardProtocol}`;

export interface PortForwardTarget {
  podName: string;
  uid: string;
  podIP: string;
}

/** Serves a port-forward session over an upgraded connection (the handshake answered); resolves when it ends. */
export function servePortForward(socket: Duplex, head: Buffer, target: PortForwardTarget): Promise<void> {
  const errorStreams = new Map<string, SpdyStream>();
  const pendingData = new Map<string, SpdyStream>();
  const relay = (data: SpdyStream, error: SpdyStream | undefined): void => {
    const portText = data.headers.port?.[0] ?? '';
    const port = Number(portText);
    const fail = (message: string): void => {
      error?.write(Buffer.from(`error forwarding port ${portText} to pod ${target.podName}, uid ${target.uid}: ${message}`));
      error?.end();
      data.end();
    };
    if (!Number.isInteger(port) || port <= 0 || port > 65535) { fail(`invalid port "${portText}"`); return; }
    const upstream = connect(port, target.podIP);
    data.incoming.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => data.write(chunk));
    upstream.on('end', () => { data.end(); error?.end(); });
    upstream.on('error', (e) => fail(e.message));
    upstream.on('close', () => errorStreams.delete(data.headers.requestid?.[0] ?? ''));
  };
  const session = startSpdySession(socket, head, (stream) => {
    const type = stream.headers.streamtype?.[0];
    const requestId = stream.headers.requestid?.[0] ?? '';
    if (type === 'error') {
      stream.incoming.resume();
      errorStreams.set(requestId, stream);
      const data = pendingData.get(requestId);
      if (data !== undefined) { pendingData.delete(requestId); relay(data, stream); }
    } else if (type === 'data') {
      // The client opens the error stream first; should it not have, wait for it (the kubelet pairs them too).
      const error = errorStreams.get(requestId);
      if (error === undefined) pendingData.set(requestId, stream);
      else relay(stream, error);
    } else {
      stream.incoming.resume();
      stream.end();
    }
  });
  return session.closed;
}
