import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AREAS } from '../../src/generated/routes.ts';
import { createAjv } from '../../validation/createAjv.ts';
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
  if (schema.format === 'mobile') examples.push('9876543210', '12345');
  if (schema.format === 'pincode') examples.push('400001', '000000');
  if (schema.format === 'date') examples.push('2026-02-28', '2026-02-30');
  if (schema.format === 'period') examples.push('2026-10', '2026-13');
  if (schema.type === 'integer' || schema.type === 'number') examples.push(0, 1, 42, -5, 1e7);
  if (schema.type === 'string') examples.push('', '   ', 'Mumbai Port', 'ABCD1234');
  return examples.length ? fc.oneof(fc.constantFrom(...examples), noise) : noise;
}

describe('precompiled validators', () => {
  it('cover every resource with an entity', () => {
    expect(resources.length).toBeGreaterThan(20);
    for (const resource of resources) {
      expect(typeof resource.entity!.validateCreate, resource.module).toBe('function');
      expect(typeof resource.entity!.validateUpdate, resource.module).toBe('function');
    }
  });

  it.each(resources.map((resource) => [resource.module, resource] as const))('%s: same verdict and messages as the runtime ajv', (_module, resource) => {
    const entity = resource.entity!;
    const runtime = ajv.compile(entity.createSchema);
    const properties = (entity.createSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, sampleValue(schema)])), { requiredKeys: [] });
    fc.assert(
      fc.property(record, (data) => {
        const precompiledOk = entity.validateCreate(data);
        const runtimeOk = runtime(data);
        expect(precompiledOk).toBe(runtimeOk);
        expect(fieldErrors(entity.validateCreate.errors ?? [], entity.createSchema, data)).toEqual(fieldErrors(runtime.errors ?? [], entity.createSchema, data));
      }),
      { numRuns: 100 },
    );
  });
});
