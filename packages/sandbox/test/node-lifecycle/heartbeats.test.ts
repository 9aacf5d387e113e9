// The kubelet heartbeats (Lease + node status) and the node lifecycle controller catching a kubelet that stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resources } from '@rayjob/kube-runtime';
import type { Lease, Node, Pod } from '../../src/kube-objects/types.ts';
import type { NodeLifecycleController } from '../../src/node-lifecycle/controller.ts';
import { startNodeLifecycleController } from '../../src/node-lifecycle/controller.ts';
import { createPod, getPod, startHarness, waitFor } from '../kubelet/harness.ts';
import type { Harness } from '../kubelet/harness.ts';

const beat = { nodeLeaseRenewMs: 150, nodeStatusUpdateMs: 150 };

const readyOf = (object: Node | Pod | undefined): string | undefined => object?.status?.conditions?.find((c) => c.type === 'Ready')?.status;

describe('kubelet heartbeats', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ timing: beat }); });
  afterAll(async () => { await h?.stop(); });

  it('renews a Lease named after the node in kube-node-lease, owned by the Node, at its cadence', async () => {
    const first = await waitFor('node lease', async () => {
      const got = await h.client.get<Lease>(resources.leases, { namespace: 'kube-node-lease', name: 'sandbox-node' });
      return got.ok ? got.value : undefined;
    });
    expect(first.spec).toMatchObject({ holderIdentity: 'sandbox-node', leaseDurationSeconds: 40 });
    expect(first.spec?.renewTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(first.metadata.ownerReferences?.[0]).toMatchObject({ apiVersion: 'v1', kind: 'Node', name: 'sandbox-node' });
    await waitFor('two more renewals', async () => {
      const got = await h.client.get<Lease>(resources.leases, { namespace: 'kube-node-lease', name: 'sandbox-node' });
      return got.ok && Number(got.value.metadata.resourceVersion) > Number(first.metadata.resourceVersion) + 1 && got.value.spec?.renewTime !== first.spec?.renewTime ? true : undefined;
    }, 10_000);
  });

  it('reports Ready with the kubelet\'s conditions, its InternalIP and its endpoint port', async () => {
    const node = await h.client.get<Node>(resources.nodes, { name: 'sandbox-node' });
    expect(node.ok).toBe(true);
    const status = node.ok ? node.value.status : undefined;
    expect(status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['MemoryPressure=False', 'DiskPressure=False', 'PIDPressure=False', 'Ready=True']);
    expect(status?.addresses).toEqual([{ type: 'InternalIP', address: h.node.network.gatewayIP }]);
    expect(status?.daemonEndpoints?.kubeletEndpoint?.Port).toEqual(expect.any(Number));
  });

  it('posts its status again when someone else changed its conditions', async () => {
    const node = await h.client.get<Node>(resources.nodes, { name: 'sandbox-node' });
    if (!node.ok) throw new Error('no node');
    const conditions = (node.value.status?.conditions ?? []).map((c) => (c.type === 'Ready' ? { ...c, status: 'Unknown' as const, reason: 'NodeStatusUnknown' } : c));
    const written = await h.client.replaceStatus<Node>(resources.nodes, { ...node.value, status: { ...node.value.status, conditions } });
    expect(written.ok).toBe(true);
    await waitFor('kubelet to post Ready again', async () => {
      const got = await h.client.get<Node>(resources.nodes, { name: 'sandbox-node' });
      return got.ok && readyOf(got.value) === 'True' ? true : undefined;
    }, 10_000);
  });
});

describe('node lifecycle controller', () => {
  let h: Harness;
  let controller: NodeLifecycleController;
  beforeAll(async () => {
    h = await startHarness({ timing: beat });
    controller = startNodeLifecycleController({ client: h.client, timing: { monitorPeriodMs: 100, gracePeriodMs: 1500 }, log: () => {} });
    await controller.synced;
  });
  afterAll(async () => { await controller?.stop(); await h?.stop(); });

  it('keeps a heartbeating node Ready across several grace periods', async () => {
    const deadline = Date.now() + 4000;
    while (Date.now() < deadline) {
      const got = await h.client.get<Node>(resources.nodes, { name: 'sandbox-node' });
      expect(got.ok && readyOf(got.value)).toBe('True');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });

  it('catches a kubelet that stops heartbeating: node Unknown and tainted, pods Ready=False; all back when it resumes', async () => {
    await createPod(h.client, { metadata: { name: 'steady' }, spec: { containers: [{ name: 'c', image: 'busybox', command: ['sleep', '60'] }] } });
    await waitFor('pod Ready', async () => (readyOf(await getPod(h.client, 'steady')) === 'True' ? true : undefined));

    h.node.kubelet.freeze();
    const unknown = await waitFor('node Unknown', async () => {
      const got = await h.client.get<Node>(resources.nodes, { name: 'sandbox-node' });
      return got.ok && readyOf(got.value) === 'Unknown' && (got.value.spec?.taints?.length ?? 0) > 0 ? got.value : undefined;
    }, 15_000);
    expect(unknown.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ reason: 'NodeStatusUnknown', message: 'Kubelet stopped posting node status.' });
    // The only node is down (full disruption): NoSchedule, and no NoExecute evictions.
    expect(unknown.spec?.taints).toEqual([{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]);
    await waitFor('pod Ready=False', async () => (readyOf(await getPod(h.client, 'steady')) === 'False' ? true : undefined), 10_000);
    const events = await h.client.list<{ metadata: Pod['metadata']; reason?: string; involvedObject?: { name?: string } }>(resources.events, { namespace: 'default' });
    const reasons = events.ok ? events.value.items.map((e) => `${e.involvedObject?.name ?? ''}:${e.reason ?? ''}`) : [];
    expect(reasons).toEqual(expect.arrayContaining(['sandbox-node:NodeNotReady', 'steady:NodeNotReady']));

    h.node.kubelet.thaw();
    await waitFor('node Ready without taints', async () => {
      const got = await h.client.get<Node>(resources.nodes, { name: 'sandbox-node' });
      return got.ok && readyOf(got.value) === 'True' && (got.value.spec?.taints ?? []).length === 0 ? true : undefined;
    }, 15_000);
    // The kubelet re-asserts its pods' conditions.
    await waitFor('pod Ready again', async () => (readyOf(await getPod(h.client, 'steady')) === 'True' ? true : undefined), 10_000);
  });
});
