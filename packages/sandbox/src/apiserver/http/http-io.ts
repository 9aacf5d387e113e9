// Reading request bodies and writing JSON / Status responses.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { requestObjects } from './audit-notes.ts';
import { decodeKubernetesProtobuf } from '../encodings/protobuf.ts';
import { ApiError, badRequest, internal, unsupportedMediaType, type StatusBody } from '../errors/status.ts';

const maxBody = 16 * 1024 * 1024;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBody) throw new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Request entity too large: limit is 3145728', reason: 'RequestEntityTooLarge', code: 413 });
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** JSON (or YAML, which kubectl never sends but curl users might) request body; undefined when empty. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const body = await decodeJsonBody(req);
  if (body !== undefined) requestObjects.set(req, body);
  return body;
}

async function decodeJsonBody(req: IncomingMessage): Promise<unknown> {
  const buf = await readBody(req);
  const text = buf.toString('utf8');
  if (text.trim() === '') return undefined;
  const type = req.headers['content-type'] ?? '';
  if (/protobuf/.test(type)) {
    const decoded = decodeKubernetesProtobuf(buf);
    if (!decoded.ok) throw unsupportedMediaType(decoded.message);
    return decoded.value;
  }
  if (/cbor/.test(type)) throw unsupportedMediaType('the body of the request was in an unknown format - accepted media types include: application/json, application/yaml');
  try {
    if (/yaml/.test(type)) return parseYaml(text);
    return JSON.parse(text);
  } catch (e) {
    throw badRequest(`the body of the request could not be decoded: ${(e as Error).message}`);
  }
}

export function sendJson(res: ServerResponse, code: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), 'Cache-Control': 'no-cache, private' });
  res.end(text);
}

/** RFC 7234 Warning headers as kube-apiserver writes them: `299 - "text"`, one header per warning. */
export function setWarnings(res: ServerResponse, warnings: string[]): void {
  if (warnings.length === 0) return;
  res.setHeader('Warning', [...new Set(warnings)].map((w) => `299 - "${w.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`));
}

export function sendStatus(res: ServerResponse, status: StatusBody): void {
  sendJson(res, status.code, status);
}

export function sendError(res: ServerResponse, err: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (err instanceof ApiError) sendStatus(res, err.status);
  else sendStatus(res, internal(err instanceof Error ? err.message : String(err)).status);
}

export function queryFlag(q: URLSearchParams, name: string): boolean {
  const v = q.get(name);
  return v === 'true' || v === '1';
}
