// The answer to an upgrade request the API server refuses: kube-apiserver's Status over the raw connection.
import type { Duplex } from 'node:stream';
import { ApiError, internal } from '../errors/status.ts';

const reasonPhrases: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 500: 'Internal Server Error', 503: 'Service Unavailable' };

/** Answers an upgrade request with kube-apiserver's Status for `error`, and closes the connection. */
export function refuse(socket: Duplex, error: unknown): void {
  const status = error instanceof ApiError ? error.status : internal(error instanceof Error ? error.message : String(error)).status;
  const body = JSON.stringify(status);
  const reason = reasonPhrases[status.code] ?? 'Error';
  socket.end(`HTTP/1.1 ${status.code} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}
