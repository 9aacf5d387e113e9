import { z } from 'zod';

/**
 * Building blocks shared by every Kubernetes schema in core. They carry the `.meta()` hints the CRD generator
 * (src/crd) needs to emit Kubernetes' structural OpenAPI: integer formats, int-or-string, date-time.
 *
 * Parsing is deliberately lenient for data the API server already validated (times, quantities): the operator
 * must never fail to read an object the cluster accepted.
 */

/** A Go `int32`. */
export const int32 = () => z.int32().meta({ format: 'int32' });

/** A Go `int64` (JavaScript numbers are exact up to 2^53, which covers generations and resource versions in practice). */
export const int64 = () => z.int().meta({ format: 'int64' });

/** A metav1.Time: RFC 3339 text as the API server writes it ("2026-01-02T03:04:05Z"). */
export const time = () => z.string().meta({ format: 'date-time' });

/** Kubernetes' resource.Quantity regular expression (as published in every CRD that embeds a quantity). */
export const QUANTITY_PATTERN =
  '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

/** A resource.Quantity: an integer or a string such as "500m" or "4Gi". */
export const quantity = () =>
  z.union([z.int(), z.string()]).meta({ 'x-kubernetes-int-or-string': true, pattern: QUANTITY_PATTERN });

/** An intstr.IntOrString (a Service targetPort, for instance). */
export const intOrString = () => z.union([z.int(), z.string()]).meta({ 'x-kubernetes-int-or-string': true });

/** A map[string]string. */
export const stringMap = () => z.record(z.string(), z.string());

/**
 * A Kubernetes-native object (EnvVar, SecurityContext, NetworkPolicy rules, ...) that zod carries untouched and
 * the CRD declares with the full schema of that Kubernetes type, generated from Kubernetes' OpenAPI (`definition`
 * is its OpenAPI name, e.g. 'io.k8s.api.core.v1.EnvVar'; see src/crd/kubernetes-schema.ts).
 */
export const kubernetesObject = (definition: string) =>
  z.looseObject({}).meta({ 'x-rayjob-crd': { kubernetes: definition } });

/**
 * A Kubernetes-native object we only carry (EnvVarSource, SecurityContext, NetworkPolicy rules, ...): zod keeps
 * every field, the CRD stores it untouched. See src/crd/README-style notes in src/crd/conventions.ts.
 */
export const opaqueObject = () =>
  z.looseObject({}).meta({ 'x-kubernetes-preserve-unknown-fields': true, 'x-rayjob-crd': { opaque: true } });
