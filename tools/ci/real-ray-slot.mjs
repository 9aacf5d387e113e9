// Vitest setup file (every project whose files may start a real Ray head lists it): one real Ray head at a time on
// this machine, whichever project or lane the file runs in. A real head is a dozen Python processes (~45 CPU-seconds
// to start) and Ray misses its own deadlines when two start side by side on 2 cores, so `npm test` may run projects
// and files beside each other (tools/ci/test.mjs) only because every real-Ray file holds this slot for its whole run.
//
// Which files: those whose source names one of the calls that start a real head or give a test the Ray binaries
// (realRayMarkers). A new real-Ray test is covered without being listed, as long as it gets Ray through them.
// The slot is an flock(1) on a file in the temp folder, held by a child process that lives until release or until
// this worker dies (its stdin closes), so a crashed file never keeps the slot.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export const realRayMarkers = /\b(findRealRayBin|realRayImage|startRealRayHead|startRealTarget|provisionRay|realTier)\b/;
const lockPath = process.env.RAYJOB_REAL_RAY_SLOT ?? join(tmpdir(), 'rayjob-real-ray.lock');
/** Long enough for every other real-Ray file of a run to finish first (they take ~13 minutes together). */
const waitMs = 40 * 60_000;

let holder;

// Vitest 5 passes the fixtures first (which must be destructured) and the file's suite second.
beforeAll(async ({}, suite) => {
  const file = suite?.file?.filepath ?? suite?.filepath;
  if (!file || !realRayMarkers.test(readFileSync(file, 'utf8'))) return;
  const started = Date.now();
  holder = spawn('flock', [lockPath, 'sh', '-c', 'echo held; exec cat'], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    holder.once('error', reject);
    holder.once('exit', (code) => reject(new Error(`real-Ray slot: flock ${lockPath} exited ${code}`)));
    holder.stdout.setEncoding('utf8').once('data', resolve);
  });
  const waited = Date.now() - started;
  if (waited > 1000) process.stdout.write(`[real-ray slot] waited ${(waited / 1000).toFixed(0)} s for another real-Ray file\n`);
}, waitMs);

afterAll(() => {
  holder?.stdin.end();
  holder = undefined;
});
