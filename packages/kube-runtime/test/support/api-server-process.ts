// Child process: the sandbox API server for kube-runtime's tests. It runs in its own process so that
// kube-runtime has no build-time dependency on @rayjob/sandbox (the sandbox's node side is built on
// kube-runtime; a dependency back would be a cycle), and so the server's CPU work is not the client's.
// Protocol over the fork IPC channel: {ready: {url, kubeconfigPath}} once listening, then
// {id, op} -> {id, value} for the fault controls, and the process stops when the parent disconnects.

interface ApiServerHandle {
  url: string;
  kubeconfigPath: string;
  watchCount(): number;
  expireWatches(): void;
  compactHistory(): void;
  stop(): Promise<void>;
}

// A computed specifier: resolved at run time only, so no tool reads it as a package dependency.
const sandboxEntry = new URL('../../../sandbox/src/index.ts', import.meta.url).href;
const { startApiServer } = (await import(sandboxEntry)) as { startApiServer(options: unknown): Promise<ApiServerHandle> };

const server = await startApiServer(JSON.parse(process.argv[2] ?? '{}'));
const ops: Record<string, () => unknown> = {
  watchCount: () => server.watchCount(),
  expireWatches: () => server.expireWatches(),
  compactHistory: () => server.compactHistory(),
};
process.on('message', (message: { id: number; op: string }) => {
  const op = ops[message.op];
  process.send?.({ id: message.id, ...(op ? { value: op() ?? null } : { error: `unknown op ${message.op}` }) });
});
process.on('disconnect', () => {
  void server.stop().then(() => process.exit(0));
});
process.send?.({ ready: { url: server.url, kubeconfigPath: server.kubeconfigPath } });
