import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkStructuralSchema, valueProblems } from '../../src/crd/structural-check.ts';
import { CrdSchemaError, zodToStructuralSchema, type OpenApiSchema } from '../../src/crd/structural-schema.ts';
import { int32, int64, quantity, time } from '@rayjob/kube-model';

describe('zod -> structural schema', () => {
  it.each([
    { name: 'int32 keeps only its format', schema: int32(), expected: { type: 'integer', format: 'int32' } },
    { name: 'int64 keeps only its format', schema: int64(), expected: { type: 'integer', format: 'int64' } },
    { name: 'an explicit minimum survives', schema: int32().meta({ minimum: 1 }), expected: { type: 'integer', format: 'int32', minimum: 1 } },
    { name: 'nullable becomes nullable: true', schema: time().nullable(), expected: { type: 'string', format: 'date-time', nullable: true } },
    { name: 'a literal becomes a one-value enum', schema: z.literal('Failed'), expected: { type: 'string', enum: ['Failed'] } },
    { name: 'a record becomes additionalProperties', schema: z.record(z.string(), z.int()), expected: { type: 'object', additionalProperties: { type: 'integer' } } },
    { name: 'an empty object preserves its fields', schema: z.looseObject({}), expected: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
    {
      name: 'a quantity is int-or-string with its pattern',
      schema: quantity(),
      expected: { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true, pattern: expect.any(String) },
    },
    {
      name: 'an opaque object drops its declared fields but keeps a description',
      schema: z.looseObject({ a: z.string() }).meta({ 'x-rayjob-crd': { opaque: true }, description: 'carried' }),
      expected: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, description: 'carried' },
    },
    {
      name: 'omitEnum keeps a plain string',
      schema: z.enum(['a', 'b']).meta({ 'x-rayjob-crd': { omitEnum: true } }),
      expected: { type: 'string' },
    },
    {
      name: 'a loose object lists properties and sorted required, no additionalProperties',
      schema: z.looseObject({ z: z.string(), a: z.boolean(), o: z.string().optional(), d: int32().default(3) }),
      expected: {
        type: 'object',
        properties: { z: { type: 'string' }, a: { type: 'boolean' }, o: { type: 'string' }, d: { type: 'integer', format: 'int32', default: 3 } },
        required: ['a', 'z'],
      },
    },
    { name: 'an array converts its items', schema: z.array(z.string()).meta({ 'x-kubernetes-list-type': 'set' }), expected: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } },
  ])('$name', ({ schema, expected }) => {
    expect(zodToStructuralSchema(schema)).toEqual(expected);
  });

  it('inlines schemas zod emits once under $defs (a schema with an id)', () => {
    const shared = z.string().meta({ id: 'shared-name' });
    expect(zodToStructuralSchema(z.object({ a: shared, b: shared }))).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' } },
      required: ['a', 'b'],
    });
  });

  it.each([
    { name: 'a plain union', schema: z.union([z.string(), z.boolean()]), error: /a union is only structural as int-or-string/ },
    { name: 'a union with an object branch', schema: z.union([z.string(), z.object({ a: z.string() })]), error: /a union is only structural/ },
    { name: 'a recursive schema', schema: recursive(), error: /cannot inline \$ref/ },
    { name: 'a keyword with no structural equivalent', schema: z.string().meta({ deprecated: true }), error: /keyword deprecated has no structural equivalent/ },
    { name: 'a tuple', schema: z.tuple([z.string(), z.int()]), error: /prefixItems|array without items/ },
  ])('rejects $name', ({ schema, error }) => {
    expect(() => zodToStructuralSchema(schema)).toThrow(CrdSchemaError);
    expect(() => zodToStructuralSchema(schema)).toThrow(error);
  });
});

function recursive(): z.ZodType {
  const node: z.ZodType = z.object({ children: z.array(z.lazy(() => node)).optional() });
  return node;
}

describe('structural check catches what the API server rejects', () => {
  it.each<{ name: string; schema: OpenApiSchema; problem: string }>([
    { name: 'a node without type', schema: { properties: { a: {} }, type: 'object' }, problem: '.a: no type' },
    { name: 'a forbidden keyword', schema: { type: 'string', $ref: '#/x' }, problem: '<root>: forbidden keyword $ref' },
    { name: 'a bad type', schema: { type: 'null' }, problem: '<root>: bad type null' },
    { name: 'anyOf outside int-or-string', schema: { anyOf: [{ type: 'string' }], type: 'string' }, problem: '<root>: anyOf outside int-or-string' },
    {
      name: 'properties with additionalProperties',
      schema: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: { type: 'string' } },
      problem: '<root>: properties and additionalProperties together',
    },
    { name: 'additionalProperties false', schema: { type: 'object', additionalProperties: false }, problem: '<root>: additionalProperties must be a schema' },
    {
      name: 'preserve-unknown-fields with additionalProperties',
      schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, additionalProperties: { type: 'string' } },
      problem: '<root>: x-kubernetes-preserve-unknown-fields with additionalProperties',
    },
    { name: 'CEL rules that are not a list', schema: { type: 'string', 'x-kubernetes-validations': {} }, problem: '<root>: x-kubernetes-validations must be a list' },
    { name: 'a CEL rule without message', schema: { type: 'string', 'x-kubernetes-validations': [{ rule: 'true' }] }, problem: '<root>: CEL rule without message' },
    { name: 'a CEL rule without rule', schema: { type: 'string', 'x-kubernetes-validations': [{ message: 'm' }] }, problem: '<root>: CEL rule without rule text' },
    {
      name: 'a list-map key that is optional',
      schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', properties: { name: { type: 'string' } } } },
      problem: '<root>: list-map key name is neither required nor defaulted',
    },
    {
      name: 'a list-map without keys',
      schema: { type: 'array', 'x-kubernetes-list-type': 'map', items: { type: 'object' , 'x-kubernetes-preserve-unknown-fields': true} },
      problem: '<root>: list-type map without list-map-keys',
    },
    {
      name: 'a nullable list-map key',
      schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: { type: 'object', required: ['name'], properties: { name: { type: 'string', nullable: true } } } },
      problem: '<root>: list-map key name is nullable',
    },
    {
      name: 'a list-map key that is not a property',
      schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['id'], items: { type: 'object', properties: { name: { type: 'string' } } } },
      problem: '<root>: list-map key id is not an item property',
    },
    {
      name: 'a list-map key that is an object',
      schema: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', required: ['k'], properties: { k: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
      problem: '<root>: list-map key k is not a scalar',
    },
    {
      name: 'list-map keys on an atomic list',
      schema: { type: 'array', 'x-kubernetes-list-type': 'atomic', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'string' } },
      problem: '<root>: list-map-keys without x-kubernetes-list-type map',
    },
    { name: 'a list type on an object', schema: { type: 'object', 'x-kubernetes-list-type': 'set', 'x-kubernetes-preserve-unknown-fields': true }, problem: '<root>: x-kubernetes-list-type on a non-array' },
    { name: 'an unknown list type', schema: { type: 'array', 'x-kubernetes-list-type': 'bag', items: { type: 'string' } }, problem: '<root>: x-kubernetes-list-type bag' },
    { name: 'a map type on a string', schema: { type: 'string', 'x-kubernetes-map-type': 'atomic' }, problem: '<root>: x-kubernetes-map-type on a non-object' },
    {
      name: 'a set of granular objects',
      schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
      problem: '<root>: set of non-atomic objects',
    },
    { name: 'a set of nullable items', schema: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', nullable: true } }, problem: '<root>: items of a list-type set are nullable' },
    { name: 'required without property', schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['b'] }, problem: '<root>: required b is not a property' },
    { name: 'an array without items', schema: { type: 'array' }, problem: '<root>: array without items' },
    { name: 'a default outside its enum', schema: { type: 'string', enum: ['a'], default: 'b' }, problem: '<root> default: "b" not in enum' },
    { name: 'a default of the wrong type', schema: { type: 'integer', default: '1' }, problem: '<root> default: expected integer, got string' },
    { name: 'a default below minimum', schema: { type: 'integer', minimum: 1, default: 0 }, problem: '<root> default: below minimum' },
    { name: 'a default outside int32', schema: { type: 'integer', format: 'int32', default: 2 ** 31 }, problem: '<root> default: outside int32' },
    { name: 'a nested default', schema: { type: 'object', properties: { a: { type: 'array', items: { type: 'string', pattern: '^x$' }, default: ['y'] } } }, problem: '.a default[0]: does not match pattern' },
  ])('$name', ({ schema, problem }) => {
    expect(checkStructuralSchema(schema)).toContain(problem);
  });

  it.each<{ name: string; schema: OpenApiSchema; value: unknown; problems: string[] }>([
    { name: 'null when not nullable', schema: { type: 'string' }, value: null, problems: ['v: null is not allowed'] },
    { name: 'null when nullable', schema: { type: 'string', nullable: true }, value: null, problems: [] },
    { name: 'an int-or-string boolean', schema: { 'x-kubernetes-int-or-string': true }, value: true, problems: ['v: not an int or string'] },
    { name: 'an int-or-string string', schema: { 'x-kubernetes-int-or-string': true }, value: '1Gi', problems: [] },
    { name: 'an integer for a number', schema: { type: 'number', maximum: 1 }, value: 2, problems: ['v: above maximum'] },
    { name: 'a short string', schema: { type: 'string', minLength: 2, maxLength: 3 }, value: 'a', problems: ['v: too short'] },
    { name: 'a long string', schema: { type: 'string', maxLength: 3 }, value: 'abcd', problems: ['v: too long'] },
    { name: 'too few items', schema: { type: 'array', minItems: 1, items: { type: 'string' } }, value: [], problems: ['v: too few items'] },
    {
      name: 'an object missing a required field, with a map value',
      schema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a', 'b'] },
      value: { a: 1 },
      problems: ['v: missing required b', 'v.a: expected string, got integer'],
    },
    { name: 'a map value', schema: { type: 'object', additionalProperties: { type: 'integer' } }, value: { k: 'x' }, problems: ['v.k: expected integer, got string'] },
  ])('valueProblems: $name', ({ schema, value, problems }) => {
    expect(valueProblems(schema, value, 'v')).toEqual(problems);
  });
});
