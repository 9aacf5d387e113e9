#!/usr/bin/env node
// `npm run demo`: the mission in under a minute. Boots the sandbox with our operator, applies a KubeRay-shaped
// RayJob (K8sJobMode, submitter backoffLimit 0, a 40-step job), prints the timeline live, deletes the
// submitter pod mid-job and kills the head's JobHead — the two triggers that make KubeRay fail a healthy
// job — and ends with the RayJob Complete/SUCCEEDED. `--keep` leaves the cluster up for kubectl.
import { enableCompileCache } from 'node:module';
import { fileURLToPath } from 'node:url';

// The demo starts a dozen Node processes from TypeScript sources (this one, the operator, the emulator and
// submitter pods). V8's compile cache on disk roughly halves their start from the second run on; the children
// find it through the environment. Set before the imports below, so they use it too.
const cache = fileURLToPath(new URL('../../node_modules/.cache/rayjob-compile-cache', import.meta.url));
enableCompileCache(cache);
process.env.NODE_COMPILE_CACHE ??= cache;

const { main } = await import('./demo/main.ts');
process.exitCode = await main(process.argv.slice(2));
