// `kubectl proxy` for a driver's reads: one long-lived kubectl process serving the API on a local port with the
// kubeconfig's credentials. A look at a scenario is several reads every second; as separate `kubectl get`
// processes they took 2-9 s each on a loaded 2-core machine (a Go binary started, discovery read, per call), so a
// look could outlast the job it watches. Writes and faults stay `kubectl` commands.
import { spawn, type ChildProcess } from 'node:child_process';
import { fetch } from 'undici';

export interface KubectlProxy {
  /** GET on the API server through the proxy: status and body (never throws for an HTTP answer). */
  get(path: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

export interface KubectlProxyOptions {
  kubectl: string;
  env: NodeJS.ProcessEnv;
  /** Bound for kubectl proxy to say where it serves. */
  startTimeoutMs?: number;
  requestTimeoutMs?: number;
}

export async function startKubectlProxy(options: KubectlProxyOptions): Promise<KubectlProxy> {
  // --port=0: a free port, printed as "Starting to serve on 127.0.0.1:<port>".
  const child: ChildProcess = spawn(options.kubectl, ['proxy', '--port=0', '--address=127.0.0.1', '--keepalive=30s'], { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`kubectl proxy did not start within ${options.startTimeoutMs ?? 60_000} ms: ${out.trim()}`)); }, options.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer): void => {
      out += chunk.toString();
      const match = /Starting to serve on ([\d.]+:\d+)/.exec(out);
      if (match) { clearTimeout(timer); resolve(`http://${match[1]}`); }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`kubectl proxy exited ${code}: ${out.trim()}`)); });
  });
  return {
    async get(path) {
      const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(options.requestTimeoutMs ?? 30_000) });
      return { status: response.status, text: await response.text() };
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
