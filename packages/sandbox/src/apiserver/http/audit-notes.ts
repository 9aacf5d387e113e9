// What the audit log needs to know about a request that only its handlers learn: who it was (noted before
// authorization, so a 403 is audited with its user) and its decoded body. Kept apart so the authenticator and
// the body reader need not import the audit log.
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../auth/authenticate.ts';

export const requestUsers = new WeakMap<IncomingMessage, UserInfo>();
export const requestObjects = new WeakMap<IncomingMessage, unknown>();
