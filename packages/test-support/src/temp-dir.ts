import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempDir extends AsyncDisposable {
  path: string;
  remove(): Promise<void>;
}

/** A fresh directory under the OS temp dir; `remove()` (or `await using`) deletes it and all in it. */
export async function tempDir(prefix = 'rayjob-test-'): Promise<TempDir> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  const remove = (): Promise<void> => rm(path, { recursive: true, force: true });
  return { path, remove, [Symbol.asyncDispose]: remove };
}
