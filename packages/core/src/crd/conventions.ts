/**
 * How the zod schemas in src/schema tell the CRD generator about Kubernetes' OpenAPI extensions.
 *
 * Convention: put Kubernetes extension keywords in `.meta()` on the zod schema of the field they belong to,
 * spelled exactly as in a CRD. zod 4 copies metadata into its JSON Schema output, and src/crd turns that output
 * into a structural schema, keeping these keys:
 *
 *   .meta({ 'x-kubernetes-validations': [{ rule: 'self == oldSelf', message: '...' }] })   CEL rules
 *   .meta({ 'x-kubernetes-preserve-unknown-fields': true })                                   keep unknown fields
 *   .meta({ 'x-kubernetes-int-or-string': true, pattern: '...' })                            on a z.union([z.int(), z.string()])
 *   .meta({ 'x-kubernetes-list-type': 'atomic' | 'set' | 'map', 'x-kubernetes-list-map-keys': ['name'] })
 *   .meta({ 'x-kubernetes-map-type': 'atomic' | 'granular' })
 *   .meta({ format: 'int32' | 'int64' | 'date-time' })                                      OpenAPI formats
 *
 * Plain zod carries the rest: `.default()` becomes `default`, z.enum `enum`, `.min()` on numbers `minimum`, on
 * arrays `minItems`, `.regex()` `pattern`, `.max()` on strings `maxLength`, `.nullable()` `nullable: true`.
 *
 * One generator directive, `x-rayjob-crd` (never emitted), covers what has no Kubernetes keyword:
 *   { kubernetes: 'io.k8s.api.core.v1.PodTemplateSpec' }
 *                       emit the full structural schema of that Kubernetes type, generated from Kubernetes' OpenAPI
 *                       (src/crd/kubernetes-schema.ts); the zod fields inside are for TypeScript readers only.
 *   { opaque: true }    emit only `type: object` + `x-kubernetes-preserve-unknown-fields: true`; the zod fields
 *                       inside are for TypeScript readers (pod templates, Kubernetes-native sub-objects).
 *   { omitEnum: true }  keep the enum in zod but not in the CRD, where KubeRay's CRD has a plain string.
 *   { required: [...] } list defaulted fields as required too, as KubeRay's CRD does (the API server applies
 *                       defaults before it checks required, so this only changes the published schema).
 */

export const CRD_DIRECTIVE_KEY = 'x-rayjob-crd';

export interface CrdDirective {
  /** A Kubernetes OpenAPI definition name (see src/crd/kubernetes-definitions.generated.ts). */
  kubernetes?: string;
  opaque?: boolean;
  omitEnum?: boolean;
  /** Extra names for `required` (fields zod defaults, which the API server defaults before it checks required). */
  required?: string[];
}

/** The Kubernetes extension keywords the generator passes through from `.meta()`. */
export const KUBERNETES_EXTENSION_KEYS = [
  'x-kubernetes-validations',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-int-or-string',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
] as const;
