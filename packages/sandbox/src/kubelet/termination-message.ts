// Reads a container's termination message after it exits: the file at terminationMessagePath
// (each container run has its own file, bind-mounted there), at most 4096 bytes; with policy
// FallbackToLogsOnError and an empty file after a failure, the log's tail (80 lines, 2048 bytes).
import { closeSync, openSync, readSync, statSync } from 'node:fs';

function readTail(path: string, maxBytes: number): string {
  try {
    const size = statSync(path).size;
    const length = Math.min(size, maxBytes);
    const buffer = Buffer.alloc(length);
    const fd = openSync(path, 'r');
    try {
      readSync(fd, buffer, 0, length, size - length);
    } finally {
      closeSync(fd);
    }
    return buffer.toString('utf8');
  } catch {
    return '';
  }
}

function readHead(path: string, maxBytes: number): string {
  try {
    const buffer = Buffer.alloc(maxBytes);
    const fd = openSync(path, 'r');
    try {
      const read = readSync(fd, buffer, 0, maxBytes, 0);
      return buffer.subarray(0, read).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function terminationMessage(opts: { messageFile: string; logFile: string; policy: 'File' | 'FallbackToLogsOnError' | undefined; exitCode: number }): string | undefined {
  const fromFile = readHead(opts.messageFile, 4096);
  if (fromFile !== '') return fromFile;
  if (opts.policy === 'FallbackToLogsOnError' && opts.exitCode !== 0) {
    const tail = readTail(opts.logFile, 2048).split('\n');
    const text = tail.slice(Math.max(0, tail.length - 81)).join('\n');
    return text === '' ? undefined : text;
  }
  return undefined;
}
