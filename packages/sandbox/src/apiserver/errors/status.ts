// Kubernetes `Status` bodies for errors, shaped exactly as kube-apiserver writes them, because
// clients (client-go, client-node, kubectl) print `message` and branch on `reason` and `code`.

export interface StatusCause {
  reason: string;
  message: string;
  field: string;
}

export interface StatusBody {
  kind: 'Status';
  apiVersion: 'v1';
  /** Empty, except an expired continue token's Status, which carries a token for the rest of the list. */
  metadata: { continue?: string };
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: { name?: string; group?: string; kind?: string; uid?: string; causes?: StatusCause[]; retryAfterSeconds?: number };
  code: number;
}

/** Typed API error: handlers return or throw these; the router turns them into HTTP responses. */
export class ApiError extends Error {
  readonly status: StatusBody;
  constructor(status: StatusBody) {
    super(status.message);
    this.status = status;
  }
}

const failure = (code: number, reason: string, message: string, details?: StatusBody['details']): ApiError =>
  new ApiError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason, ...(details && { details }), code });

/** `pods "x"` or `rayjobs.ray.io "x"`: the qualified resource name the real server uses in messages. */
export const qualified = (plural: string, group: string): string => (group === '' ? plural : `${plural}.${group}`);

export const notFound = (plural: string, group: string, name: string): ApiError =>
  failure(404, 'NotFound', `${qualified(plural, group)} "${name}" not found`, { name, ...(group && { group }), kind: plural });

export const alreadyExists = (plural: string, group: string, name: string): ApiError =>
  failure(409, 'AlreadyExists', `${qualified(plural, group)} "${name}" already exists`, { name, ...(group && { group }), kind: plural });

export const conflict = (plural: string, group: string, name: string): ApiError =>
  failure(
    409,
    'Conflict',
    `Operation cannot be fulfilled on ${qualified(plural, group)} "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    { name, ...(group && { group }), kind: plural },
  );

export const conflictMessage = (plural: string, group: string, name: string, message: string): ApiError =>
  failure(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(plural, group)} "${name}": ${message}`, {
    name,
    ...(group && { group }),
    kind: plural,
  });

export const badRequest = (message: string): ApiError => failure(400, 'BadRequest', message);

export const methodNotAllowed = (message: string): ApiError => failure(405, 'MethodNotAllowed', message);

export const unsupportedMediaType = (message: string): ApiError => failure(415, 'UnsupportedMediaType', message);

export const notAcceptable = (accepted: string): ApiError => failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted}`);

export const gone = (message: string): ApiError => failure(410, 'Expired', message);

/** A continue token from before the last compaction; the Status carries a token to list the rest inconsistently. */
export const continueExpired = (inconsistentContinue: string): ApiError =>
  new ApiError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: { continue: inconsistentContinue },
    status: 'Failure',
    message:
      'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
    reason: 'Expired',
    code: 410,
  });

export const forbidden = (message: string): ApiError => failure(403, 'Forbidden', message);

/** A read at a resourceVersion the store has not reached (kube-apiserver's storage.NewTooLargeResourceVersionError). */
export const tooLargeResourceVersion = (requested: number, current: number): ApiError =>
  failure(504, 'Timeout', `Too large resource version: ${requested}, current: ${current}`, {
    causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version', field: '' }],
    retryAfterSeconds: 1,
  });

export const pathNotFound = (): ApiError => failure(404, 'NotFound', 'the server could not find the requested resource');

export const internal = (message: string): ApiError => failure(500, 'InternalError', `Internal error occurred: ${message}`);

export const tooManyRequests = (message: string, retryAfterSeconds: number): ApiError =>
  failure(429, 'TooManyRequests', message, { retryAfterSeconds });

/** 422 with the real server's message: `Kind.group "name" is invalid: [a, b]` (brackets only for several). */
export const invalid = (kind: string, group: string, name: string, causes: StatusCause[]): ApiError => {
  const what = group === '' ? kind : `${kind}.${group}`;
  const parts = causes.map((c) => (c.field ? `${c.field}: ${c.message}` : c.message));
  const joined = parts.length === 1 ? parts[0] : `[${parts.join(', ')}]`;
  return failure(422, 'Invalid', `${what} "${name}" is invalid: ${joined}`, {
    name,
    ...(group && { group }),
    kind,
    causes,
  });
};

export const successStatus = (details: StatusBody['details']): StatusBody => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Success',
  ...(details && { details }),
  code: 200,
});
