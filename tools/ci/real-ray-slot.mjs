// Vitest setup file (every project whose files may start real Ray lists it): real-Ray test files take a place in the
// machine's real-Ray slot before their first hook and keep it to their end, whichever project or lane they run in.
// The slot has RAYJOB_REAL_RAY_SLOTS places (default 2: two real-Ray files at once; 1: one at a time): much
// of a real-Ray file's time is waiting (autoscaler idle timeouts, FT bounds, job runs), which can overlap, while the
// CPU-heavy part, a Ray node starting, is serialized machine-wide by the Ray start lock that every real Ray start
// takes (@rayjob/test-support's holdRayStartLock: ray-conformance's startRealRayHead, the sandbox's realRayImage).
//
// Which files: those whose source names one of the calls that start a real head or give a test the Ray binaries
// (realRayMarkers). A new real-Ray test is covered without being listed, as long as it gets Ray through them.
// Each place is an flock(1) on a file in the temp folder ($RAYJOB_REAL_RAY_SLOT, then .2, ...), held by a child
// process that lives until release or until this worker dies (its stdin closes), so a crashed file never keeps it.
import { readFileSync } from 'node:fs';
import { acquireMachineLock, realRaySlotPaths } from '@rayjob/test-support';
import { afterAll, beforeAll } from 'vitest';

export const realRayMarkers = /\b(findRealRayBin|realRayImage|startRealRayHead|startRealTarget|provisionRay|realTier)\b/;
/** Long enough for every other real-Ray file of a run to finish first (they take ~20 minutes together). */
const waitMs = 40 * 60_000;

let slot;

// Vitest 5 passes the fixtures first (which must be destructured) and the file's suite second.
beforeAll(async ({}, suite) => {
  const file = suite?.file?.filepath ?? suite?.filepath;
  if (!file || !realRayMarkers.test(readFileSync(file, 'utf8'))) return;
  const paths = realRaySlotPaths();
  slot = await acquireMachineLock(paths, { waitMs, what: `the real-Ray slot (${paths.length} place${paths.length > 1 ? 's' : ''})` });
  if (slot.waitedMs > 1000) process.stdout.write(`[real-ray slot] waited ${(slot.waitedMs / 1000).toFixed(0)} s for another real-Ray file\n`);
}, waitMs);

afterAll(async () => {
  await slot?.release();
  slot = undefined;
});
