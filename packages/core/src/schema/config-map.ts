import { z } from 'zod';
import { ObjectMetaSchema, stringMap } from '@rayjob/kube-model';

/** The slice of core/v1 ConfigMap the operator writes (the submitter state of addition H). */
export const ConfigMapSchema = z.looseObject({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema,
  data: stringMap().optional(),
});
export type ConfigMap = z.infer<typeof ConfigMapSchema>;
