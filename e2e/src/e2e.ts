#!/usr/bin/env node
// `npm run e2e -- --kubeconfig <path> [scenario ...]` or `npm run e2e -- --kind [scenario ...]`: the e2e scenarios on
// a cluster of one's own (see run/cli.ts). `npm test` runs them on the sandbox, directly and through kubectl.
import { main } from './run/cli.ts';

process.exitCode = await main(process.argv.slice(2));
