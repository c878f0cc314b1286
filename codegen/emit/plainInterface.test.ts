import fc from 'fast-check';
import { compile } from 'json-schema-to-typescript';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../contract/description.ts';
import { buildModel } from '../generate.ts';
import { ENTITY_INTERFACE_OPTIONS, entitySchema } from './entities.ts';
import { plainInterface } from './plainInterface.ts';

type ObjectSchema = Parameters<typeof plainInterface>[1];

/** What json-schema-to-typescript writes for the schema, as entities.ts asks it. */
function packageInterface(name: string, schema: ObjectSchema): Promise<string> {
  return compile(structuredClone(schema) as never, name, ENTITY_INTERFACE_OPTIONS);
}

const manifestFolders = ['manifest', 'tests/fixtures/minimal/manifest', 'tests/fixtures/relations/manifest'];

describe('plainInterface', () => {
  it.each(manifestFolders)('writes the entities of %s as json-schema-to-typescript does', async (folder) => {
    const built = await buildModel(fileURLToPath(new URL(`../../${folder}`, import.meta.url)));
    const resources = built.model!.areas.flatMap((area) => area.resources).filter((resource) => resource.entity);
    expect(resources.length).toBeGreaterThan(0);
    for (const resource of resources) {
      const schema = entitySchema(resource);
      const expected = await packageInterface(resource.typeName, schema);
      expect(plainInterface(resource.typeName, schema) ?? expected, resource.key).toBe(expected);
    }
  });

  it('writes what json-schema-to-typescript writes whenever it writes anything', async () => {
    let written = 0;
    await fc.assert(
      fc.asyncProperty(typeName, objectSchema, async (name, schema) => {
        const plain = plainInterface(name, schema);
        if (plain === null) return;
        written += 1;
        expect(plain).toBe(await packageInterface(name, schema));
      }),
      { numRuns: 1000 },
    );
    // About a fifth of the samples are plain throughout, so the comparison is not vacuous.
    expect(written).toBeGreaterThan(100);
  });

  it('leaves to the package what it does not write itself', () => {
    const object = (property: JsonSchema): ObjectSchema => ({
      description: '',
      properties: { a: property },
      required: [],
    });
    for (const property of [
      { type: 'string', title: 'A' },
      { type: ['string', 'null'] },
      { type: 'string', default: 1 },
      { type: 'array', items: { type: 'string' }, maxItems: 3 },
      { type: 'array', items: { type: 'object', properties: {} } },
      { type: 'string', enumLabels: { x: { $ref: '#/x' } } },
      { type: 'string', const: 'x' },
      { type: 'string', deprecated: true },
    ])
      expect(plainInterface('A', object(property)), JSON.stringify(property)).toBeNull();
    expect(plainInterface('Top10items', object({ type: 'string' }))).toBeNull();
  });
});

// Mostly what the direct path writes, with now and then what it must leave to the package.
const typeName = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('Users', 'Ab9', 'Top10Items', 'A') },
  { weight: 1, arbitrary: fc.constantFrom('Top10items', 'lower', 'With_Underscore', 'Dotted.Name') },
);
const description = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('', 'Name', 'ends */ here', 'two\nlines', '  spaced  ', '/** nested */') },
  { weight: 1, arbitrary: fc.constantFrom(5, null) },
);
const literal = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.double());
/** A keyword the package does not read, with a value it must not trip over. */
const inertValue = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(true, 3, 'x', null, ['a', 1], { a: 'A' }, { value: 1, message: 'm' }) },
  { weight: 2, arbitrary: fc.constant({ field: 'f', units: { a: 'percent' } }) },
  { weight: 1, arbitrary: fc.constantFrom({ type: 'string' }, { nested: { $ref: '#/x' } }, { title: 'T' }) },
);

const scalarSchema = fc.record(
  {
    type: fc.constantFrom('string', 'integer', 'number', 'boolean'),
    description,
    enum: fc.oneof(
      { weight: 6, arbitrary: fc.array(literal, { maxLength: 4 }) },
      { weight: 1, arbitrary: fc.constantFrom([null], [{ a: 1 }]) },
    ),
    default: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('text', 7, true, null) },
      { weight: 1, arbitrary: fc.oneof(literal, fc.constantFrom([1], { a: 1 }, { $ref: '#/x' })) },
    ),
    format: fc.constantFrom('email', 'money', 'date'),
    maxLength: fc.nat(50),
    enumLabels: inertValue,
    rangeMin: inertValue,
    readOnly: fc.boolean(),
  },
  { requiredKeys: ['type'] },
);

const fieldSchema: fc.Arbitrary<JsonSchema> = fc.oneof(
  { weight: 12, arbitrary: scalarSchema },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        type: fc.constant('array'),
        items: fc.oneof(scalarSchema, fc.constant({ type: 'array', items: { type: 'string' } })),
        description,
        minItems: fc.constantFrom(0, 1, 3),
        maxItems: fc.constantFrom(0, 2, 20, 21, 50),
        uniqueItems: fc.boolean(),
        default: fc.constantFrom(['a'], 'a', 1, true, null),
      },
      { requiredKeys: ['type', 'items'] },
    ),
  },
  {
    weight: 1,
    // Kinds the package reads: the direct path must leave them to it.
    arbitrary: fc.record(
      {
        type: fc.constantFrom('string', 'object', 'null', ['string', 'null'], 'any'),
        title: fc.constantFrom('Title', 'Other'),
        $id: fc.constant('field'),
        const: literal,
        tsType: fc.constant('Date'),
        deprecated: fc.boolean(),
        properties: fc.constant({ a: { type: 'string' } }),
        anyOf: fc.constant([{ type: 'string' }, { type: 'number' }]),
      },
      { requiredKeys: [] },
    ),
  },
);

const fieldName = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('name', 'code', 'plan_id', '$dollar', '_under', 'length') },
  { weight: 1, arbitrary: fc.constantFrom('2bad', 'with-dash', '[k: string]') },
);
const objectSchema: fc.Arbitrary<ObjectSchema> = fc
  .dictionary(fieldName, fieldSchema, { maxKeys: 4 })
  .chain((properties) =>
    fc.record({
      description: fc.constantFrom('Plan (PLANS), as the API returns it.', 'A */ B', 'multi\nline', ''),
      properties: fc.constant(properties),
      required: fc.subarray(Object.keys(properties)),
    }),
  )
  .map((schema) => ({ type: 'object', ...schema, additionalProperties: false }));
