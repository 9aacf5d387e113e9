// CRD generation: zod schemas -> structural OpenAPI -> CustomResourceDefinition YAML (pure; the tool writes files).
export * from './conventions.ts';
export * from './structural-schema.ts';
export * from './kubernetes-schema.ts';
export * from './structural-check.ts';
export * from './definitions.ts';
export * from './render-yaml.ts';
