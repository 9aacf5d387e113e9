import type { z } from 'zod';
import { RayClusterSpecSchema, RayClusterStatusSchema } from '../schema/raycluster.ts';
import { RayJobResourceStatusSchema, RayJobSpecSchema } from '../schema/rayjob.ts';
import { zodToStructuralSchema, type OpenApiSchema } from './structural-schema.ts';

/**
 * The CustomResourceDefinition objects for ray.io RayJob and RayCluster, built from the zod schemas.
 * Identity, printer columns, categories and the status subresource match KubeRay's CRDs.
 */

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  priority?: number;
}

interface ResourceDescription {
  kind: string;
  plural: string;
  singular: string;
  spec: z.ZodType;
  status: z.ZodType;
  printerColumns: PrinterColumn[];
}

export const RAY_GROUP = 'ray.io';

export const RAYJOB_PRINTER_COLUMNS: PrinterColumn[] = [
  { name: 'job status', type: 'string', jsonPath: '.status.jobStatus' },
  { name: 'deployment status', type: 'string', jsonPath: '.status.jobDeploymentStatus' },
  { name: 'ray cluster name', type: 'string', jsonPath: '.status.rayClusterName' },
  { name: 'start time', type: 'string', jsonPath: '.status.startTime' },
  { name: 'end time', type: 'string', jsonPath: '.status.endTime' },
  { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

export const RAYCLUSTER_PRINTER_COLUMNS: PrinterColumn[] = [
  { name: 'desired workers', type: 'integer', jsonPath: '.status.desiredWorkerReplicas' },
  { name: 'available workers', type: 'integer', jsonPath: '.status.availableWorkerReplicas' },
  { name: 'cpus', type: 'string', jsonPath: '.status.desiredCPU' },
  { name: 'memory', type: 'string', jsonPath: '.status.desiredMemory' },
  { name: 'gpus', type: 'string', jsonPath: '.status.desiredGPU' },
  { name: 'tpus', type: 'string', jsonPath: '.status.desiredTPU', priority: 1 },
  { name: 'status', type: 'string', jsonPath: '.status.state' },
  { name: 'age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  { name: 'head pod IP', type: 'string', jsonPath: '.status.head.podIP', priority: 1 },
  { name: 'head service IP', type: 'string', jsonPath: '.status.head.serviceIP', priority: 1 },
];

const RAYJOB: ResourceDescription = {
  kind: 'RayJob',
  plural: 'rayjobs',
  singular: 'rayjob',
  spec: RayJobSpecSchema,
  status: RayJobResourceStatusSchema,
  printerColumns: RAYJOB_PRINTER_COLUMNS,
};

const RAYCLUSTER: ResourceDescription = {
  kind: 'RayCluster',
  plural: 'rayclusters',
  singular: 'raycluster',
  spec: RayClusterSpecSchema,
  status: RayClusterStatusSchema,
  printerColumns: RAYCLUSTER_PRINTER_COLUMNS,
};

/**
 * The root schema. Built here rather than from RayJobSchema: Kubernetes owns `metadata`, and neither spec nor
 * status is required at the root in KubeRay's CRDs (zod's RayJob fills a missing spec with its defaults).
 */
function rootSchema(resource: ResourceDescription): OpenApiSchema {
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: zodToStructuralSchema(resource.spec),
      status: zodToStructuralSchema(resource.status),
    },
  };
}

function printerColumnsYaml(columns: PrinterColumn[]): OpenApiSchema[] {
  return columns.map((c) => ({
    jsonPath: c.jsonPath,
    name: c.name,
    ...(c.priority ? { priority: c.priority } : {}),
    type: c.type,
  }));
}

function customResourceDefinition(resource: ResourceDescription): OpenApiSchema {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${resource.plural}.${RAY_GROUP}` },
    spec: {
      group: RAY_GROUP,
      names: {
        categories: ['all'],
        kind: resource.kind,
        listKind: `${resource.kind}List`,
        plural: resource.plural,
        singular: resource.singular,
      },
      scope: 'Namespaced',
      versions: [
        {
          additionalPrinterColumns: printerColumnsYaml(resource.printerColumns),
          name: 'v1',
          schema: { openAPIV3Schema: rootSchema(resource) },
          served: true,
          storage: true,
          subresources: { status: {} },
        },
        {
          // Not served: listed only so a cluster whose storedVersions still names v1alpha1 accepts this CRD.
          name: 'v1alpha1',
          schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          served: false,
          storage: false,
        },
      ],
    },
  };
}

export const rayJobCrd = (): OpenApiSchema => customResourceDefinition(RAYJOB);
export const rayClusterCrd = (): OpenApiSchema => customResourceDefinition(RAYCLUSTER);
