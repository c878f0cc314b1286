import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../src/generated/routes.ts';
import { createAjv } from '../../validation/createAjv.ts';
import { nationalMobile } from '../../validation/formats.ts';
import { fieldErrors } from '../../validation/messages.ts';

// The browser runs the precompiled validators; the server compiles the same schemas at run time.
// Both must reach the same verdict and the same messages for any input.
const areas = await Promise.all(AREAS.map((area) => area.load()));
const resources = areas.flatMap((area) => area.resources).filter((resource) => resource.entity);
const ajv = createAjv();

function sampleValue(schema: Record<string, unknown>): fc.Arbitrary<unknown> {
  const noise = fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.string({ maxLength: 12 }));
  const examples: unknown[] = [];
  if (Array.isArray(schema.enum)) examples.push(...schema.enum);
  if (schema.format === 'email') examples.push('ops@tradedata.in', 'not-an-email');
  if (schema.format === 'mobile') examples.push('9876543210', '12345', '+91 98765 43210', '098765-43210');
  if (schema.format === 'pincode') examples.push('400001', '000000');
  if (schema.format === 'date') examples.push('2026-02-28', '2026-02-30');
  if (schema.format === 'period') examples.push('2026-10', '2026-13');
  if (schema.type === 'integer' || schema.type === 'number') examples.push(0, 1, 42, -5, 1e7);
  if (schema.type === 'string') examples.push('', '   ', 'Mumbai Port', 'ABCD1234', 'abcd1234');
  return examples.length ? fc.oneof(fc.constantFrom(...examples), noise) : noise;
}

function asTheFormPutsIt(
  data: Record<string, unknown>,
  properties: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(data).map(([name, value]) => {
      const normalise = properties[name]?.normalise;
      if (typeof value !== 'string' || !normalise) return [name, value];
      return [name, normalise === 'upper' ? value.toUpperCase() : nationalMobile(value)];
    }),
  );
}

describe('precompiled validators', () => {
  it('cover every resource with an entity', () => {
    expect(resources.length).toBeGreaterThan(20);
    for (const resource of resources) {
      expect(typeof resource.entity!.validateCreate, resource.module).toBe('function');
      expect(typeof resource.entity!.validateUpdate, resource.module).toBe('function');
    }
  });

  it.each(resources.map((resource) => [resource.module, resource] as const))(
    '%s: same verdict and messages as the runtime ajv',
    (_module, resource) => {
      const entity = resource.entity!;
      const runtime = ajv.compile(entity.createSchema);
      const properties = (entity.createSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const record = fc.record(
        Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, sampleValue(schema)])),
        { requiredKeys: [] },
      );
      fc.assert(
        fc.property(record, (given) => {
          // The server stores a `normalise`d field in its one form before judging it; the browser's form puts it so
          // (capitals as typed, a mobile's ten digits when left) before its precompiled validator judges it.
          const data = asTheFormPutsIt(given as Record<string, unknown>, properties);
          const runtimeData = structuredClone(given);
          const precompiledOk = entity.validateCreate(data);
          const runtimeOk = runtime(runtimeData);
          expect(precompiledOk).toBe(runtimeOk);
          expect(runtimeData).toEqual(data);
          expect(fieldErrors(entity.validateCreate.errors ?? [], entity.createSchema, data)).toEqual(
            fieldErrors(runtime.errors ?? [], entity.createSchema, data),
          );
        }),
        { numRuns: 100 },
      );
    },
  );
});
