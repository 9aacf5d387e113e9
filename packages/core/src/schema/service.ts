import { z } from 'zod';
import { int32, intOrString, ObjectMetaSchema, opaqueObject, stringMap } from '@rayjob/kube-model';

/** The slice of core/v1 Service the operator reads and writes (the RayJob head Service). */
export const ServicePortSchema = z.looseObject({
  name: z.string().optional(),
  port: int32(),
  targetPort: intOrString().optional(),
  protocol: z.string().optional(),
  nodePort: int32().optional(),
  appProtocol: z.string().optional(),
});
export type ServicePort = z.infer<typeof ServicePortSchema>;

export const ServiceSpecSchema = z.looseObject({
  type: z.string().optional(),
  clusterIP: z.string().optional(),
  clusterIPs: z.array(z.string()).optional(),
  ports: z.array(ServicePortSchema).optional(),
  selector: stringMap().optional(),
  publishNotReadyAddresses: z.boolean().optional(),
});
export type ServiceSpec = z.infer<typeof ServiceSpecSchema>;

export const ServiceSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  spec: ServiceSpecSchema.optional(),
  status: opaqueObject().optional(),
});
export type Service = z.infer<typeof ServiceSchema>;
