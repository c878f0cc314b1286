import { cp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import { buildModel, formatManifestError, type ManifestError } from '../../codegen/index.ts';
import { editJson, projectRoot, scratchManifest, tempDir } from './helpers.ts';

const PLANS = 'subscription-management.json';
const SUBSCRIBERS = 'subscriber-management.json';
const ROLES = 'user-management.json';
const VOUCHER = 'voucher-management.json';
const plan = (...rest: string[]) => ['/resources/0/entity/schema', ...rest].join('/');

/** A scratch copy of the product's own manifest, which has the subscription-plans module. */
async function productManifest(): Promise<string> {
  const dir = await tempDir('manifest');
  await cp(join(projectRoot, 'manifest'), dir, { recursive: true });
  return dir;
}

/** The plans without their price: the list and the form forget it too, so that only the plans' contract is broken. */
function withoutPrice(doc: Record<string, any>): void {
  const plans = doc.resources[0];
  const others = (names: string[]) => names.filter((name) => name !== 'price');
  delete plans.entity.schema.properties.price;
  plans.entity.schema.required = others(plans.entity.schema.required);
  plans.list.columns = others(plans.list.columns);
  plans.list.priority = others(plans.list.priority);
  plans.list.sort.field = 'code';
  plans.uiSchema['ui:order'] = others(plans.uiSchema['ui:order']);
}

/** A field gone from a resource: from its schema, and from the list and the form that show it. */
function withoutField(resource: Record<string, any>, name: string): void {
  const others = (names: string[] = []) => names.filter((each) => each !== name);
  delete resource.entity.schema.properties[name];
  resource.entity.schema.required = others(resource.entity.schema.required);
  for (const part of ['columns', 'priority', 'filters', 'search', 'bulkEdit'] as const)
    if (resource.list[part]) resource.list[part] = others(resource.list[part]);
  if (resource.uiSchema) {
    delete resource.uiSchema[name];
    resource.uiSchema['ui:order'] = others(resource.uiSchema['ui:order']);
  }
}

async function planErrors(edit: (plans: Record<string, any>) => void, file = PLANS): Promise<string[]> {
  const dir = await productManifest();
  await editJson(join(dir, file), edit);
  const { errors } = await buildModel(dir);
  expect(errors.every((error) => error.kind === 'ModuleContractViolation')).toBe(true);
  return errors.map(formatManifestError);
}

describe('the fields special code reads are declared', () => {
  it("accepts the product's manifest: the plans declare their fields, and money is a format with its currency", async () => {
    const built = await buildModel(await productManifest());
    expect(built.errors).toEqual([]);
    const plans = built.model!.areas.flatMap((area) => area.resources).find((each) => each.key === 'SUBSCRIPTIONS');
    const price = plans!.entity!.fields.find((field) => field.name === 'price');
    expect(price).toMatchObject({ type: 'number', format: 'money', currency: 'INR' });
    expect(price).not.toHaveProperty('unit');
  });

  it('refuses plans without a field a sale reads, naming the file and the pointer', async () => {
    const errors = await planErrors(withoutPrice);
    expect(errors).toEqual([
      `${PLANS}:${plan('properties')}: a plan needs "price", a number of format "money": a sale charges it, less a voucher (contract/modules.ts, SUBSCRIPTION_PLAN_FIELDS)`,
    ]);
  });

  it('refuses a plan field of another type or format, or one that may be empty', async () => {
    const errors = await planErrors((doc) => {
      const schema = doc.resources[0].entity.schema;
      schema.properties.points.type = 'number';
      delete schema.properties.price.format;
      delete schema.properties.price.currency;
      schema.required = schema.required.filter((name: string) => name !== 'validity_days');
    });
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(`^${PLANS}:${plan('properties', 'price')}: "price" must be a number of format "money"`),
      ),
      expect.stringMatching(
        new RegExp(`^${PLANS}:${plan('properties', 'points', 'type')}: "points" must be an integer`),
      ),
      expect.stringMatching(new RegExp(`^${PLANS}:${plan('required')}: "validity_days" must be required`)),
    ]);
  });

  it('refuses subscribers without a field the server keeps on them, naming the file and the pointer', async () => {
    const subscriber = (...rest: string[]) => ['/resources/0/entity/schema', ...rest].join('/');
    const errors = await planErrors((doc) => withoutField(doc.resources[0], 'points_balance'), SUBSCRIBERS);
    expect(errors).toEqual([
      `${SUBSCRIBERS}:${subscriber('properties')}: a subscriber needs "points_balance", an integer kept by the server (readOnly): every entry of the points ledger sets it to the balance it leaves (contract/modules.ts, SUBSCRIBER_FIELDS)`,
    ]);
  });

  it('refuses a subscriber field people could type, of another type, or without a status the server writes', async () => {
    const subscriber = (...rest: string[]) => ['/resources/0/entity/schema/properties', ...rest].join('/');
    const errors = await planErrors((doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      delete properties.plan_id.readOnly;
      properties.points_balance.type = 'number';
      properties.status.enum = properties.status.enum.filter((value: string) => value !== 'expiring');
      delete properties.status.enumLabels.expiring;
    }, SUBSCRIBERS);
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${SUBSCRIBERS}:${subscriber('status', 'enum')}: "status" must allow every value the server uses \\(none, trial, active, expiring, expired, cancelled\\)`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^${SUBSCRIBERS}:${subscriber('plan_id')}: "plan_id" is kept by the server, so it must be readOnly`),
      ),
      expect.stringMatching(
        new RegExp(`^${SUBSCRIBERS}:${subscriber('points_balance', 'type')}: "points_balance" must be an integer`),
      ),
    ]);
  });

  it('refuses roles with an entity but no description for the seed to write, and accepts roles without an entity', async () => {
    const errors = await planErrors((doc) => withoutField(doc.resources[1], 'description'), ROLES);
    expect(errors).toEqual([
      `${ROLES}:/resources/1/entity/schema/properties: a role needs "description", a string: the seed says by it what each role every install has may do (contract/modules.ts, ROLE_FIELDS)`,
    ]);
    const dir = await scratchManifest('relations');
    expect((await buildModel(dir)).errors).toEqual([]);
  });

  it("refuses data columns an upload cannot read, and uploads whose month or counts are not the import's", async () => {
    const props = (...rest: string[]) => ['/resources/0/entity/schema/properties', ...rest].join('/');
    const columns = await planErrors((doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      properties.data_type.enum = ['string', 'number'];
      delete properties.data_type.enumLabels.date;
      properties.is_required = { title: 'Required in uploads', type: 'string', maxLength: 3 };
    }, 'data-column.json');
    expect(columns).toEqual([
      expect.stringMatching(
        new RegExp(
          `^data-column.json:${props('data_type', 'enum')}: "data_type" must allow every value the server uses \\(string, number, date\\)`,
        ),
      ),
      expect.stringMatching(
        new RegExp(`^data-column.json:${props('is_required', 'type')}: "is_required" must be a boolean`),
      ),
    ]);
    const uploads = await planErrors((doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      delete properties.period.format;
      delete properties.rows_total.readOnly;
    }, 'data-upload-management.json');
    expect(uploads).toEqual([
      expect.stringMatching(
        new RegExp(
          `^data-upload-management.json:${props('period')}: "period" must be a string of format "period": an import's records are kept by the month they cover \\(contract/modules.ts, DATA_UPLOAD_FIELDS\\)`,
        ),
      ),
      expect.stringMatching(
        new RegExp(
          `^data-upload-management.json:${props('rows_total')}: "rows_total" is kept by the server, so it must be readOnly`,
        ),
      ),
    ]);
  });

  it('refuses vouchers without a field a sale reads, naming the file and the pointer', async () => {
    const errors = await planErrors((doc) => withoutField(doc.resources[0], 'max_discount'), VOUCHER);
    expect(errors).toEqual([
      `${VOUCHER}:/resources/0/entity/schema/properties: a voucher needs "max_discount", a number of format "money": a sale caps a percent discount at it (empty: no cap) (contract/modules.ts, VOUCHER_FIELDS)`,
    ]);
  });

  it('refuses a voucher field of another type, a kind of discount a sale tells apart left out, and uses people could type', async () => {
    const voucher = (...rest: string[]) => ['/resources/0/entity/schema', ...rest].join('/');
    const errors = await planErrors((doc) => {
      const schema = doc.resources[0].entity.schema;
      const { discount_type: discountType, discount_value: discountValue } = schema.properties;
      discountType.enum = ['percent', 'fixed'];
      discountType.enumLabels = { percent: 'Percent', fixed: 'Fixed amount' };
      discountValue.valueUnit.units = { fixed: 'rupees', percent: 'percent' };
      schema.properties.usage_limit.type = 'number';
      delete schema.properties.used_count.readOnly;
      schema.required = schema.required.filter((name: string) => name !== 'discount_value');
    }, VOUCHER);
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${VOUCHER}:${voucher('properties', 'discount_type', 'enum')}: "discount_type" must allow every value the server uses \\(percent, flat\\): a sale takes a percent of the price off, or a flat amount \\(contract/modules.ts, VOUCHER_FIELDS\\)`,
        ),
      ),
      expect.stringMatching(new RegExp(`^${VOUCHER}:${voucher('required')}: "discount_value" must be required`)),
      expect.stringMatching(
        new RegExp(`^${VOUCHER}:${voucher('properties', 'usage_limit', 'type')}: "usage_limit" must be an integer`),
      ),
      expect.stringMatching(
        new RegExp(`^${VOUCHER}:${voucher('properties', 'used_count')}: "used_count" is kept by the server`),
      ),
    ]);
  });

  it('writes nothing for a manifest whose vouchers lack a field a sale reads', async () => {
    const dir = await productManifest();
    await editJson(join(dir, VOUCHER), (doc) => withoutField(doc.resources[0], 'usage_limit'));
    const out = await tempDir('out');
    const lines: string[] = [];
    const code = await main(['node', 'admin-codegen', 'generate', '--manifest', dir, '--out', out], {
      log: (line) => lines.push(line),
      error: (line) => lines.push(line),
    });
    expect(code).toBe(1);
    expect(lines[0]).toBe(
      `${VOUCHER}:/resources/0/entity/schema/properties: a voucher needs "usage_limit", an integer: a sale is refused once the voucher has been used that many times (empty: no limit) (contract/modules.ts, VOUCHER_FIELDS)`,
    );
    expect(await readdir(out)).toEqual([]);
  });

  it('writes nothing for a manifest whose plans lack a declared field', async () => {
    const dir = await productManifest();
    await editJson(join(dir, PLANS), withoutPrice);
    const out = await tempDir('out');
    const lines: string[] = [];
    const code = await main(['node', 'admin-codegen', 'generate', '--manifest', dir, '--out', out], {
      log: (line) => lines.push(line),
      error: (line) => lines.push(line),
    });
    expect(code).toBe(1);
    expect(lines[0]).toMatch(
      new RegExp(`^${PLANS}:${plan('properties')}: a plan needs "price", a number of format "money":`),
    );
    expect(await readdir(out)).toEqual([]);
  });

  it('refuses money that is no number, money without its currency, a currency on another field, and money with a unit', async () => {
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      properties.fare = { type: 'number', format: 'money' };
      properties.fee_code = { type: 'string', format: 'money', currency: 'INR' };
      properties.cap = { type: 'number', format: 'money', currency: 'INR', valueUnit: 'percent' };
      properties.count = { type: 'integer', currency: 'INR' };
    });
    const errors: ManifestError[] = (await buildModel(dir)).errors;
    const at = (...rest: string[]) => ['/resources/0/entity/schema/properties', ...rest].join('/');
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'SchemaViolation', file: VOUCHER, pointer: at('fare') }),
        expect.objectContaining({ kind: 'SchemaViolation', file: VOUCHER, pointer: at('fee_code', 'format') }),
        expect.objectContaining({ kind: 'SchemaViolation', file: VOUCHER, pointer: at('cap', 'valueUnit') }),
        expect.objectContaining({ kind: 'SchemaViolation', file: VOUCHER, pointer: at('count', 'currency') }),
      ]),
    );
    expect(errors.find((error) => error.pointer === at('fare'))?.message).toBe(
      '"fare" is money: say its currency, e.g. "currency": "INR"',
    );
  });

  it('refuses a currency the service does not bill in, and "rupees" as a field\'s own unit (money is a format)', async () => {
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      properties.fare = { type: 'number', format: 'money', currency: 'USD' };
    });
    expect((await buildModel(dir)).errors).toEqual([
      expect.objectContaining({ kind: 'InvalidEntitySchema', file: VOUCHER, pointer: '/resources/0/entity/schema' }),
    ]);
    await editJson(join(dir, VOUCHER), (doc) => {
      doc.resources[0].entity.schema.properties.fare = { type: 'number', valueUnit: 'rupees' };
    });
    expect((await buildModel(dir)).errors).toEqual([
      expect.objectContaining({ kind: 'InvalidEntitySchema', file: VOUCHER, pointer: '/resources/0/entity/schema' }),
    ]);
  });
});

describe('the widgets a field is edited with are declared by its format', () => {
  it('accepts "image-url" and "password" on text, and refuses them on another type, naming the file and the pointer', async () => {
    const dir = await scratchManifest();
    const at = (...rest: string[]) => ['/resources/0/entity/schema/properties', ...rest].join('/');
    await editJson(join(dir, VOUCHER), (doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      properties.poster = { type: 'string', format: 'image-url', maxLength: 2048 };
    });
    expect((await buildModel(dir)).errors).toEqual([]);
    await editJson(join(dir, VOUCHER), (doc) => {
      const properties = doc.resources[0].entity.schema.properties;
      properties.poster = { type: 'integer', format: 'image-url' };
      properties.pin = { type: 'number', format: 'password' };
    });
    expect((await buildModel(dir)).errors.map(formatManifestError)).toEqual([
      `${VOUCHER}:${at('poster', 'format')}: "image-url" is a format of text, and "poster" is no string`,
      `${VOUCHER}:${at('pin', 'format')}: "password" is a format of text, and "pin" is no string`,
    ]);
  });
});
