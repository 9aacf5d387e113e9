// Vitest setup file: stops the emulators each test started. A hook registered when emulator.ts is first imported
// would, with `isolate: false` (one module graph per worker), run for the first file of a worker only: the other
// files' emulators and their jobs' processes outlived them (#27).
import { afterEach } from 'vitest';
import { stopStarted } from './emulator.ts';

afterEach(stopStarted);
