// How the sandbox's node-side components (Job controller, endpoints controller, DNS, node lifecycle, apps and
// service-account controllers, kubelet) run on kube-runtime: each is a kube-runtime manager (shared informers,
// controllers, event recorders) without leader election or probe servers, started in the background and stopped
// with its in-flight reconciles finished. Retries are quicker than client-go's defaults: the API server is local.
import { createLogger, createManager, type BackoffOptions, type KubeClient, type Logger, type Manager } from '@rayjob/kube-runtime';

/** List/watch retry: 100 ms doubling to 2 s (client-go: 800 ms to 30 s, sized for a remote API server). */
export const nodeInformerBackoff: BackoffOptions = { initialMs: 100, maxMs: 2_000 };

/** Errors only, on stderr, named after the component: the sandbox's output stays quiet while things work. */
export function componentLogger(name: string): Logger {
  return createLogger({ level: 'error', name, destination: process.stderr });
}

export function componentManager(client: KubeClient, logger: Logger): Manager {
  return createManager({ client, logger, informerBackoff: nodeInformerBackoff, gracefulShutdownTimeoutMs: 10_000 });
}

export interface RunningComponent {
  /** Resolves once every informer listed (the component then acts on a full picture). */
  readonly synced: Promise<void>;
  /** Stops taking work, waits for in-flight reconciles, ends the watches and flushes events. */
  stop(): Promise<void>;
}

/** Starts `manager` in the background; `synced` waits for `informers`. */
export function runComponent(manager: Manager, informers: Array<{ waitForSync(signal?: AbortSignal): Promise<boolean> }>): RunningComponent {
  const abort = new AbortController();
  const done = manager.start(abort.signal).catch((error: unknown) => manager.logger.error({ err: error }, 'component stopped with an error'));
  const synced = Promise.all(informers.map((i) => i.waitForSync(abort.signal))).then(() => undefined);
  let stopped: Promise<void> | undefined;
  return {
    synced,
    stop: () => {
      stopped ??= (async () => {
        abort.abort();
        await done;
      })();
      return stopped;
    },
  };
}

/** Informers without controllers (the kubelet, DNS): run until stopped. */
export function runInformers(informers: Array<{ run(signal: AbortSignal): Promise<void>; waitForSync(signal?: AbortSignal): Promise<boolean> }>): RunningComponent {
  const abort = new AbortController();
  const runs = informers.map((i) => i.run(abort.signal));
  const synced = Promise.all(informers.map((i) => i.waitForSync(abort.signal))).then(() => undefined);
  return {
    synced,
    stop: async () => {
      abort.abort();
      await Promise.all(runs);
    },
  };
}
