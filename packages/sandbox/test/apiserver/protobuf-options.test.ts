// Request-option bodies in protobuf: client-go sends DeleteOptions as `<group version>/DeleteOptions` (Helm's
// uninstall purges its release Secrets so); metav1 registers the option kinds in every group version.
import { describe, expect, it } from 'vitest';
import { decodeKubernetesProtobuf } from '../../src/apiserver/encodings/protobuf.ts';

const bytes = (field: number, value: Buffer): Buffer => Buffer.concat([Buffer.from([(field << 3) | 2, value.length]), value]);
const envelope = (apiVersion: string, kind: string, raw: Buffer): Buffer =>
  Buffer.concat([Buffer.from('k8s\0', 'binary'), bytes(1, Buffer.concat([bytes(1, Buffer.from(apiVersion)), bytes(2, Buffer.from(kind))])), bytes(2, raw)]);

describe('protobuf request options', () => {
  it.each(['v1', 'apps/v1', 'meta.k8s.io/v1'])('%s/DeleteOptions decodes to its fields', (apiVersion) => {
    // DeleteOptions field 4: propagationPolicy.
    const decoded = decodeKubernetesProtobuf(envelope(apiVersion, 'DeleteOptions', bytes(4, Buffer.from('Background'))));
    expect(decoded).toEqual({ ok: true, value: { apiVersion, kind: 'DeleteOptions', propagationPolicy: 'Background' } });
  });

  it('an unknown kind is still refused', () => {
    expect(decodeKubernetesProtobuf(envelope('v1', 'NoSuchKind', Buffer.alloc(0))).ok).toBe(false);
  });
});
