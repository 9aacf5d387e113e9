#!/usr/bin/env node
// ray-emulator CLI: serves the emulated dashboard until SIGTERM/SIGINT. With --faults it also serves a control
// endpoint on a separate port (printed), so the dashboard can be stopped and started again from outside.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startRayEmulator } from './emulator.ts';
import { startFaultControl } from './fault-control.ts';
import { startProcessSentinels } from './process-sentinels.ts';

const usage = `usage: ray-emulator [--host 127.0.0.1] [--node-ip IP] [--port 8265] [--auth-token-file FILE] [--ray-version 2.58.0]
                    [--faults [--faults-port 0]] [--process-titles]
  --node-ip         the head's IP in /nodes (default: --host; 127.0.0.1 for 0.0.0.0), e.g. its pod's IP
  --process-titles  also run stand-in processes titled like Ray's JobHead and DashboardAgent; killing them
                    (e.g. \`pkill -f ray-dashboard-JobHead\`) has the effect killing the real ones has`;

function fail(message: string): never {
  process.stderr.write(`ray-emulator: ${message}\n${usage}\n`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      'node-ip': { type: 'string' },
      port: { type: 'string', default: '8265' },
      'auth-token-file': { type: 'string' },
      'ray-version': { type: 'string', default: '2.58.0' },
      faults: { type: 'boolean', default: false },
      'faults-port': { type: 'string', default: '0' },
      'process-titles': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (values.help) {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}

const parsePort = (name: string): number => {
  const port = Number(values[name]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--${name} must be an integer from 0 to 65535`);
  return port;
};

let authToken: string | undefined;
const tokenFile = values['auth-token-file'];
if (typeof tokenFile === 'string') {
  try {
    authToken = readFileSync(tokenFile, 'utf8').trim();
  } catch {
    fail(`--auth-token-file: cannot read ${tokenFile}`);
  }
  if (!authToken) fail('--auth-token-file: the file is empty');
}

const emulator = await startRayEmulator({
  host: String(values.host),
  ...(typeof values['node-ip'] === 'string' && values['node-ip'] !== '' ? { nodeIp: values['node-ip'] } : {}),
  port: parsePort('port'),
  rayVersion: String(values['ray-version']),
  ...(authToken !== undefined ? { authToken } : {}),
});
process.stdout.write(`${emulator.url}\n`);
const control = values.faults ? await startFaultControl(emulator, String(values.host), parsePort('faults-port')) : undefined;
if (control) process.stdout.write(`faults: ${control.url}\n`);
const sentinels = values['process-titles']
  ? startProcessSentinels(emulator.faults, { onError: (error) => process.stderr.write(`ray-emulator: ${String(error)}\n`) })
  : undefined;

let stopping = false;
const shutdown = async () => {
  if (stopping) return;
  stopping = true;
  sentinels?.stop();
  await control?.close();
  await emulator.stop();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
