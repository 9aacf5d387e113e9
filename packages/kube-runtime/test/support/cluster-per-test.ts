// The setup every sandbox-backed test file repeats: one forked API server per file, a fresh cluster view per
// test, and the test's stop signals aborted (then the view closed) after it.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { attachTestCluster, forkApiServer, type ApiServerControl, type ApiServerOptions, type TestCluster } from './sandbox.ts';

export interface ClusterPerTest {
  /** This test's cluster view. */
  readonly cluster: TestCluster;
  /** This test's stop signal, aborted after the test. */
  readonly stop: AbortController;
  /** One more stop signal (e.g. one per replica), aborted after the test. */
  newStop(): AbortController;
}

export function useClusterPerTest(options: ApiServerOptions = { bookmarkIntervalMs: 100 }): ClusterPerTest {
  let server: ApiServerControl;
  let cluster: TestCluster | undefined;
  let stops: AbortController[] = [];
  beforeAll(async () => {
    server = await forkApiServer(options);
  });
  afterAll(async () => {
    await server.stop();
  });
  beforeEach(async () => {
    cluster = await attachTestCluster(server);
    stops = [new AbortController()];
  });
  afterEach(async () => {
    for (const s of stops.splice(0)) s.abort();
    await cluster?.stop();
  });
  return {
    get cluster() {
      if (cluster === undefined) throw new Error('the cluster exists only inside a test');
      return cluster;
    },
    get stop() {
      return stops[0]!;
    },
    newStop() {
      const stop = new AbortController();
      stops.push(stop);
      return stop;
    },
  };
}
