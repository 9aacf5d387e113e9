// Vitest setup file: closes what each test started through the fixtures. A hook registered when fixtures.ts is first
// imported would, with `isolate: false` (one module graph per worker), run for the first file of a worker only:
// the other files' emulators and their jobs' processes outlived them (#27).
import { afterEach } from 'vitest';
import { runCleanups } from './fixtures.ts';

afterEach(runCleanups);
