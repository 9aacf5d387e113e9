// The k8s.io message descriptors (proto/k8s-descriptors.json, extracted from the kubectl binary by
// tools/extract-proto-descriptors.ts): what the protobuf decoder and the OpenAPI schemas are built from.
import { readFileSync } from 'node:fs';

/** [number, name, type, label, message type] of one field, as tools/extract-proto-descriptors.ts writes them. */
export type FieldRow = [number, string, number, number, string?];
export type Message = { f: FieldRow[]; map?: 1 };
// Read at run time (not imported) so the type checker does not type a 230 kB literal.
const descriptors = JSON.parse(readFileSync(new URL('./k8s-descriptors.json', import.meta.url), 'utf8')) as { messages: Record<string, Message> };
export const messages = descriptors.messages;

/**
 * A few proto fields are named in Go style (`Expression`, `Webhooks`) while their JSON name is lowerCamel
 * (`json:"expression"`); only DaemonEndpoint.Port (`json:"Port"`) and FieldsV1.Raw (opaque) keep the capital.
 * Rename the others so pruning, OpenAPI and the protobuf decoder all use the JSON names.
 */
const capitalJsonNames = new Set(['k8s.io.api.core.v1.DaemonEndpoint.Port', `k8s.io.apimachinery.pkg.apis.meta.v1.FieldsV1.Raw`]);
for (const [type, message] of Object.entries(messages)) {
  for (const row of message.f) {
    if (/^[A-Z]/.test(row[1]) && !capitalJsonNames.has(`${type}.${row[1]}`)) row[1] = row[1][0]!.toLowerCase() + row[1].slice(1);
  }
}

export const T = { double: 1, float: 2, int64: 3, uint64: 4, int32: 5, fixed64: 6, fixed32: 7, bool: 8, string: 9, message: 11, bytes: 12, uint32: 13, enum: 14, sfixed32: 15, sfixed64: 16, sint32: 17, sint64: 18 } as const;
export const repeatedLabel = 3;
export const metaPackage = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/**
 * The request-option kinds metav1.AddToGroupVersion registers in every group version: client-go sends a
 * DeleteOptions body as `v1/DeleteOptions` (Helm's release-secret purge does, in protobuf).
 */
const optionKinds = new Set(['CreateOptions', 'DeleteOptions', 'GetOptions', 'ListOptions', 'PatchOptions', 'UpdateOptions']);

/** The proto message of a Kind: k8s.io.api.<first label of the group, or core>.<version>.<Kind>. */
export function messageOfKind(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = slash < 0 ? apiVersion : apiVersion.slice(slash + 1);
  const candidates = group === 'meta.k8s.io' || optionKinds.has(kind) ? [`${metaPackage}.${kind}`] : [`k8s.io.api.${group === '' ? 'core' : group.split('.')[0]}.${version}.${kind}`];
  return candidates.find((c) => Object.hasOwn(messages, c));
}

/**
 * Go structs embedded with `json:",inline"`: their fields are the parent's in JSON. The descriptors cannot tell
 * (the proto field is an ordinary message field named after the embedded type), so these are listed.
 */
export const inlineFields = new Set([
  'k8s.io.api.core.v1.ConfigMapEnvSource.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapKeySelector.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapProjection.localObjectReference',
  'k8s.io.api.core.v1.ConfigMapVolumeSource.localObjectReference',
  'k8s.io.api.core.v1.SecretEnvSource.localObjectReference',
  'k8s.io.api.core.v1.SecretKeySelector.localObjectReference',
  'k8s.io.api.core.v1.SecretProjection.localObjectReference',
  'k8s.io.api.core.v1.Volume.volumeSource',
  'k8s.io.api.core.v1.PersistentVolumeSpec.persistentVolumeSource',
  'k8s.io.api.core.v1.EphemeralContainer.ephemeralContainerCommon',
  'k8s.io.api.core.v1.Probe.handler',
  'k8s.io.api.networking.v1.IngressRule.ingressRuleValue',
  'k8s.io.api.networking.v1beta1.IngressRule.ingressRuleValue',
  'k8s.io.api.extensions.v1beta1.IngressRule.ingressRuleValue',
  'k8s.io.api.admissionregistration.v1.RuleWithOperations.rule',
  'k8s.io.api.admissionregistration.v1.NamedRuleWithOperations.ruleWithOperations',
  'k8s.io.api.admissionregistration.v1alpha1.NamedRuleWithOperations.ruleWithOperations',
  'k8s.io.api.admissionregistration.v1beta1.NamedRuleWithOperations.ruleWithOperations',
  ...['v1alpha3', 'v1beta1'].flatMap((v) =>
    ['DeviceAllocationConfiguration', 'DeviceClaimConfiguration', 'DeviceClassConfiguration'].map((m) => `k8s.io.api.resource.${v}.${m}.deviceConfiguration`),
  ),
]);

