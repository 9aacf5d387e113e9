// Identifiers shaped like Ray's: submission ids `raysubmit_` + 16 chars from [A-Za-z0-9] minus I l o O 0,
// node ids 28 bytes as 56 hex characters.
import { randomBytes, randomInt } from 'node:crypto';

const submissionAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz123456789';

export function newSubmissionId(): string {
  let out = 'raysubmit_';
  for (let i = 0; i < 16; i += 1) out += submissionAlphabet[randomInt(submissionAlphabet.length)];
  return out;
}

export function newNodeId(): string {
  return randomBytes(28).toString('hex');
}

export function newSessionName(now: Date): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const date = `${now.getUTCFullYear()}-${pad(now.getUTCMonth() + 1)}-${pad(now.getUTCDate())}`;
  const time = `${pad(now.getUTCHours())}-${pad(now.getUTCMinutes())}-${pad(now.getUTCSeconds())}`;
  return `session_${date}_${time}_${pad(now.getUTCMilliseconds() * 1000, 6)}_${process.pid}`;
}
