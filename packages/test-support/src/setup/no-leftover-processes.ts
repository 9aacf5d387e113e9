// Vitest setup file: a test file fails if a process it started outlives it. Setup files run for every file, also
// with `isolate: false`, where a hook registered when a shared support module is first imported runs for that one
// file only: exactly how emulated jobs' shell loops once outlived their files and kept burning CPU (#27).
import { afterAll } from 'vitest';
import { eventually } from '../eventually.ts';
import { liveDescendants } from '../descendants.ts';

/** A stopped process may take a moment to exit (SIGTERM handlers, a shell's child after it). */
const graceMs = 5_000;

afterAll(async () => {
  await eventually(() => {
    const left = liveDescendants();
    if (left.length === 0) return true;
    throw new Error(`still running: ${left.map((p) => `${p.pid} ${p.command.slice(0, 120)}`).join('; ')}`);
  }, { what: 'no process started by this test file left running', withinMs: graceMs, everyMs: 100 });
}, graceMs + 1_000);
