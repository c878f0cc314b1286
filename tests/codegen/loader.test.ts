import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel, type ManifestError } from '../../codegen/index.ts';
import { main } from '../../cli/main.ts';
import { editJson, scratchManifest, tempDir } from './helpers.ts';

const VOUCHER = 'voucher-management.json';

async function errorsAfter(edit: (dir: string) => Promise<void>): Promise<ManifestError[]> {
  const dir = await scratchManifest();
  await edit(dir);
  return (await buildModel(dir)).errors;
}

describe('manifest loader and validator', () => {
  it('accepts the fixture manifest', async () => {
    const built = await buildModel(await scratchManifest());
    expect(built.errors).toEqual([]);
    expect(built.model?.areas.map((area) => area.key)).toEqual(['VOUCHER_MANAGEMENT', 'PROFILE_MANAGEMENT']);
  });

  it('reports invalid JSON with its line and column', async () => {
    const errors = await errorsAfter((dir) =>
      writeFile(join(dir, VOUCHER), '{\n  "key": "VOUCHER_MANAGEMENT",\n  "label": \n}\n'),
    );
    expect(errors).toEqual([expect.objectContaining({ kind: 'InvalidJson', file: VOUCHER, pointer: '' })]);
    expect(errors[0]!.message).toMatch(/line 4, column 1/);
  });

  it('reports an unknown property with its pointer', async () => {
    const errors = await errorsAfter((dir) => editJson(join(dir, VOUCHER), (doc) => (doc.resources[0].colour = 'red')));
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'UnknownProperty', file: VOUCHER, pointer: '/resources/0/colour' }),
    ]);
  });

  it('reports a duplicate area key', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, 'profile-management.json'), (doc) => (doc.key = 'VOUCHER_MANAGEMENT')),
    );
    expect(errors).toContainEqual(
      expect.objectContaining({ kind: 'DuplicateAreaKey', file: 'voucher-management.json', pointer: '/key' }),
    );
  });

  it('reports a duplicate resource key', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, 'profile-management.json'), (doc) => (doc.resources[0].key = 'VOUCHER')),
    );
    expect(errors).toContainEqual(expect.objectContaining({ kind: 'DuplicateModuleKey', pointer: '/resources/0/key' }));
  });

  it('reports a duplicate route path', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) =>
        doc.resources.push({
          ...doc.resources[0],
          key: 'VOUCHER_COPY',
          entity: { ...doc.resources[0].entity, table: 'voucher_copy' },
        }),
      ),
    );
    expect(errors).toContainEqual(
      expect.objectContaining({ kind: 'DuplicateRoutePath', file: VOUCHER, pointer: '/resources/1/path' }),
    );
  });

  it('reports an action outside the vocabulary', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => doc.resources[0].actions.push('approve')),
    );
    expect(errors).toContainEqual(
      expect.objectContaining({ kind: 'UnknownAction', pointer: '/resources/0/actions/6' }),
    );
  });

  it('reports a sidebar link outside its area path', async () => {
    const errors = await errorsAfter((dir) => editJson(join(dir, VOUCHER), (doc) => (doc.sidebar.link = '/masters')));
    expect(errors).toEqual([expect.objectContaining({ kind: 'SidebarLinkOutsideArea', pointer: '/sidebar/link' })]);
  });

  it('reports a sidebar icon outside the vocabulary, naming the icons there are', async () => {
    const errors = await errorsAfter((dir) => editJson(join(dir, VOUCHER), (doc) => (doc.sidebar.icon = 'rocket')));
    expect(errors).toEqual([expect.objectContaining({ kind: 'UnknownIcon', file: VOUCHER, pointer: '/sidebar/icon' })]);
    expect(errors[0]!.message).toMatch(
      /^unknown icon; expected one of activity, address-book, .*ticket, upload, users$/,
    );
  });

  it('reports an empty sidebar group with its pointer', async () => {
    const errors = await errorsAfter((dir) => editJson(join(dir, VOUCHER), (doc) => (doc.sidebar.group = '')));
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'SchemaViolation', file: VOUCHER, pointer: '/sidebar/group' }),
    ]);
  });

  it('reports a sidebar group written two ways, which would show as two headings', async () => {
    const errors = await errorsAfter(async (dir) => {
      await editJson(
        join(dir, 'profile-management.json'),
        (doc) => (doc.sidebar = { link: '/profile-management', group: 'Subscribers and sales' }),
      );
      await editJson(join(dir, VOUCHER), (doc) => (doc.sidebar.group = 'Subscribers  and Sales'));
    });
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'InconsistentSidebarGroup', file: VOUCHER, pointer: '/sidebar/group' }),
    ]);
    expect(errors[0]!.message).toBe(
      'sidebar group "Subscribers  and Sales" differs only in case or spacing from "Subscribers and sales" at profile-management.json:/sidebar/group; write a heading one way',
    );
  });

  it('reports an entity schema that ajv rejects', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => (doc.resources[0].entity.schema.properties.code.minLength = 'three')),
    );
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'InvalidEntitySchema', pointer: '/resources/0/entity/schema' }),
    ]);
    expect(errors[0]!.message).toMatch(/minLength/);
  });

  it('reports a misused custom keyword through the shared ajv set-up', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(
        join(dir, VOUCHER),
        (doc) => (doc.resources[0].entity.schema.properties.code.customPattern = { pattern: '^A' }),
      ),
    );
    expect(errors).toEqual([expect.objectContaining({ kind: 'InvalidEntitySchema' })]);
  });

  it.each([
    ['a list column', (doc: any) => doc.resources[0].list.columns.push('colour'), '/resources/0/list/columns/3'],
    ['a search field', (doc: any) => doc.resources[0].list.search.push('colour'), '/resources/0/list/search/1'],
    ['a filter', (doc: any) => (doc.resources[0].list.filters = ['colour']), '/resources/0/list/filters/0'],
    [
      'a uiSchema field',
      (doc: any) => (doc.resources[0].uiSchema = { colour: { 'ui:widget': 'textarea' } }),
      '/resources/0/uiSchema/colour',
    ],
    ['the default sort', (doc: any) => (doc.resources[0].list.sort.field = 'colour'), '/resources/0/list/sort/field'],
  ])('reports %s naming a field the entity lacks', async (_what, edit, pointer) => {
    const errors = await errorsAfter((dir) => editJson(join(dir, VOUCHER), edit));
    expect(errors).toEqual([expect.objectContaining({ kind: 'UnknownField', file: VOUCHER, pointer })]);
  });

  it('accepts unique keys of one field and composite keys of several, and resolves each to its fields and index', async () => {
    const dir = await scratchManifest();
    await editJson(
      join(dir, VOUCHER),
      (doc) =>
        (doc.resources[0].entity.unique = [
          'code',
          ['discount_value', 'used_count'],
          ['used_count', 'code', 'discount_value'],
        ]),
    );
    const built = await buildModel(dir);
    expect(built.errors).toEqual([]);
    expect(built.model!.areas[0]!.resources[0]!.entity!.unique).toEqual([
      { fields: ['code'], index: 'voucher_code_key' },
      { fields: ['discount_value', 'used_count'], index: 'voucher_discount_value_used_count_key' },
      { fields: ['used_count', 'code', 'discount_value'], index: 'voucher_used_count_code_discount_value_key' },
    ]);
  });

  it.each([
    [
      'a single field that the entity lacks',
      ['code', 'colour'],
      [['UnknownField', '/1', 'unique names "colour", which the entity lacks']],
    ],
    [
      'a composite naming a field the entity lacks',
      [['code', 'colour']],
      [['UnknownField', '/0/1', 'unique names "colour", which the entity lacks']],
    ],
    [
      'a composite naming a system field',
      [['code', 'is_active']],
      [['UnknownField', '/0/1', 'unique names "is_active", which the entity lacks']],
    ],
    [
      'a composite of one field',
      ['code', ['discount_value']],
      [['InvalidUniqueKey', '/1', 'a composite unique key names 2 or more fields; write a single field as its name']],
    ],
    [
      'an empty composite',
      [[]],
      [['InvalidUniqueKey', '/0', 'a composite unique key names 2 or more fields; write a single field as its name']],
    ],
    [
      'a composite naming a field twice',
      [['code', 'discount_value', 'code']],
      [['InvalidUniqueKey', '/0/2', 'a composite unique key names each field once; this repeats item 0']],
    ],
    ['a key written twice', ['code', 'code'], [['DuplicateUniqueKey', '/1', 'the same unique key as item 0']]],
    [
      'a composite written twice',
      [
        ['code', 'discount_value'],
        ['code', 'discount_value'],
      ],
      [['DuplicateUniqueKey', '/1', 'the same unique key as item 0']],
    ],
    [
      'a composite of the same fields in another order',
      [
        ['code', 'discount_value'],
        ['discount_value', 'code'],
      ],
      [['DuplicateUniqueKey', '/1', 'the same fields as unique key 0, in another order']],
    ],
    [
      'a field name that is not snake_case, in a composite',
      [['code', 'Colour']],
      [['SchemaViolation', '/0/1', 'must match pattern "^[a-z][a-z0-9_]*$"']],
    ],
    [
      'a key that is neither a name nor a list',
      [42],
      [['SchemaViolation', '/0', 'a unique key is a field name or a list of 2 or more field names']],
    ],
  ])('reports %s, with its pointer, once', async (_what, unique, expected) => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => (doc.resources[0].entity.unique = unique)),
    );
    expect(errors).toEqual(
      expected.map(([kind, pointer, message]) => ({
        kind,
        file: VOUCHER,
        pointer: `/resources/0/entity/unique${pointer}`,
        message,
      })),
    );
  });

  it('reports two unique keys whose index names would coincide', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        doc.resources[0].entity.schema.properties.discount = { type: 'number' };
        doc.resources[0].entity.schema.properties.code_discount = { type: 'string' };
        doc.resources[0].entity.unique = [['code', 'discount'], 'code_discount'];
      }),
    );
    expect(errors).toEqual([
      {
        kind: 'DuplicateUniqueKey',
        file: VOUCHER,
        pointer: '/resources/0/entity/unique/1',
        message: 'its index name "voucher_code_discount_key" is that of unique key 0; rename a field',
      },
    ]);
  });

  it('accepts a business rule (if/then) on the entity, and reports one naming a field the entity lacks', async () => {
    const rule = (doc: any, then: object) =>
      Object.assign(doc.resources[0].entity.schema, {
        if: { properties: { code: { const: 'HALF' } }, required: ['code'] },
        then,
      });
    expect(
      await errorsAfter((dir) =>
        editJson(join(dir, VOUCHER), (doc) =>
          rule(doc, { properties: { discount_value: { type: 'number', maximum: 100 } } }),
        ),
      ),
    ).toEqual([]);
    const misspelt = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => rule(doc, { required: ['discount_valeu'] })),
    );
    expect(misspelt).toEqual([
      {
        kind: 'UnknownField',
        file: VOUCHER,
        pointer: '/resources/0/entity/schema/then/required/0',
        message: 'a business rule names "discount_valeu", which the entity lacks',
      },
    ]);
    const inAllOf = await errorsAfter((dir) =>
      editJson(
        join(dir, VOUCHER),
        (doc) =>
          (doc.resources[0].entity.schema.allOf = [
            { if: { properties: { colour: { const: 'red' } } }, then: { required: ['code'] } },
          ]),
      ),
    );
    expect(inAllOf).toEqual([
      expect.objectContaining({
        kind: 'UnknownField',
        pointer: '/resources/0/entity/schema/allOf/0/if/properties/colour',
      }),
    ]);
  });

  it('reports notBefore or compareTo naming no sibling field, and notBefore between fields of different formats', async () => {
    const properties = (doc: any) => doc.resources[0].entity.schema.properties;
    const unknown = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => (properties(doc).code.compareTo = 'colour')),
    );
    expect(unknown).toEqual([
      expect.objectContaining({
        kind: 'UnknownField',
        file: VOUCHER,
        pointer: '/resources/0/entity/schema/properties/code/compareTo',
      }),
    ]);
    const mismatched = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        properties(doc).opens_on = { type: 'string', format: 'date' };
        properties(doc).closes_at = { type: 'string', format: 'date-time', notBefore: 'opens_on' };
      }),
    );
    expect(mismatched).toEqual([
      expect.objectContaining({
        kind: 'SchemaViolation',
        file: VOUCHER,
        pointer: '/resources/0/entity/schema/properties/closes_at/notBefore',
      }),
    ]);
    const fine = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        properties(doc).valid_from = { type: 'string', format: 'date' };
        properties(doc).valid_to = { type: 'string', format: 'date', notBefore: 'valid_from' };
      }),
    );
    expect(fine).toEqual([]);
  });

  it('reports enumLabels that miss a value of the enum, name one it lacks, or label a field without an enum; resolves them, or the values in words', async () => {
    const properties = (doc: any) => doc.resources[0].entity.schema.properties;
    const pointer = '/resources/0/entity/schema/properties/kind/enumLabels';
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        properties(doc).kind = {
          type: 'string',
          enum: ['percent', 'flat_amount'],
          enumLabels: { percent: 'Percent', flat: 'Flat' },
        };
        properties(doc).code.enumLabels = { A: 'A' };
      }),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'SchemaViolation',
          file: VOUCHER,
          pointer: `${pointer}/flat`,
          message: '"flat" is not a value of the enum of "kind"',
        }),
        expect.objectContaining({
          kind: 'SchemaViolation',
          file: VOUCHER,
          pointer,
          message: 'no label for "flat_amount"',
        }),
        expect.objectContaining({
          kind: 'SchemaViolation',
          file: VOUCHER,
          pointer: '/resources/0/entity/schema/properties/code/enumLabels',
        }),
      ]),
    );
    expect(errors).toHaveLength(3);
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => {
      properties(doc).kind = {
        type: 'string',
        enum: ['percent', 'flat_amount'],
        enumLabels: { percent: 'Percent off', flat_amount: 'Flat amount' },
      };
      properties(doc).scope = { type: 'string', enum: ['north_east', 'all'] };
    });
    const fields = (await buildModel(dir)).model!.areas[0]!.resources[0]!.entity!.fields;
    expect(fields.find((field) => field.name === 'kind')?.enumLabels).toEqual({
      percent: 'Percent off',
      flat_amount: 'Flat amount',
    });
    expect(fields.find((field) => field.name === 'scope')?.enumLabels).toEqual({
      north_east: 'North east',
      all: 'All',
    });
    expect(fields.find((field) => field.name === 'code')?.enumLabels).toBeNull();
  });

  it('reports a valueUnit on a field that is no number, or by a sibling that is no enum or whose values it does not match; resolves a unit', async () => {
    const properties = (doc: any) => doc.resources[0].entity.schema.properties;
    const at = (name: string) => `/resources/0/entity/schema/properties/${name}/valueUnit`;
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        properties(doc).kind = { type: 'string', enum: ['percent', 'flat'] };
        properties(doc).value = {
          type: 'number',
          valueUnit: { field: 'kind', units: { percent: 'percent', fixed: 'rupees' } },
        };
        properties(doc).cap = { type: 'number', valueUnit: { field: 'code', units: { A: 'rupees' } } };
        properties(doc).code.valueUnit = 'rupees';
      }),
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'SchemaViolation',
          file: VOUCHER,
          pointer: `${at('value')}/units`,
          message: 'the units of "value" must name each value of "kind" once ("fixed" is not one, "flat" has none)',
        }),
        expect.objectContaining({ kind: 'UnknownField', file: VOUCHER, pointer: `${at('cap')}/field` }),
        expect.objectContaining({ kind: 'SchemaViolation', file: VOUCHER, pointer: at('code') }),
      ]),
    );
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => {
      properties(doc).kind = { type: 'string', enum: ['percent', 'flat'] };
      properties(doc).value = {
        type: 'number',
        valueUnit: { field: 'kind', units: { percent: 'percent', flat: 'rupees' } },
      };
      properties(doc).share = { type: 'number', valueUnit: 'percent' };
    });
    const built = await buildModel(dir);
    expect(built.errors).toEqual([]);
    const fields = built.model!.areas[0]!.resources[0]!.entity!.fields;
    expect(fields.find((field) => field.name === 'value')?.unit).toEqual({
      field: 'kind',
      units: { percent: 'percent', flat: 'rupees' },
    });
    expect(fields.find((field) => field.name === 'share')?.unit).toBe('percent');
    expect(fields.find((field) => field.name === 'kind')).not.toHaveProperty('unit');
  });

  it('reports a mobile field that does not say it is stored as its ten digits, and normalise "mobile" on another; resolves capitals', async () => {
    const properties = (doc: any) => doc.resources[0].entity.schema.properties;
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        properties(doc).phone = { type: 'string', format: 'mobile' };
        properties(doc).code.normalise = 'mobile';
      }),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        kind: 'SchemaViolation',
        file: VOUCHER,
        pointer: '/resources/0/entity/schema/properties/code/normalise',
      }),
      expect.objectContaining({
        kind: 'SchemaViolation',
        file: VOUCHER,
        pointer: '/resources/0/entity/schema/properties/phone',
        message:
          '"phone" is a mobile number: add "normalise": "mobile", so that it is stored as its ten digits however it is typed',
      }),
    ]);
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => {
      properties(doc).code.normalise = 'upper';
      properties(doc).phone = { type: 'string', format: 'mobile', normalise: 'mobile' };
    });
    const built = await buildModel(dir);
    expect(built.errors).toEqual([]);
    const fields = built.model!.areas[0]!.resources[0]!.entity!.fields;
    expect(fields.find((field) => field.name === 'code')?.normalise).toBe('upper');
    expect(fields.find((field) => field.name === 'phone')?.normalise).toBe('mobile');
  });

  it('reports an unknown custom screen name', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, 'profile-management.json'), (doc) => (doc.resources[0].screens.view = 'profile-v2')),
    );
    expect(errors).toEqual([
      expect.objectContaining({
        kind: 'UnknownScreen',
        file: 'profile-management.json',
        pointer: '/resources/0/screens/view',
      }),
    ]);
  });

  it('reports a view without a screen on a resource without an entity', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, 'profile-management.json'), (doc) => delete doc.resources[0].screens),
    );
    expect(errors).toEqual([expect.objectContaining({ kind: 'MissingScreen', pointer: '/resources/0/actions' })]);
  });

  it('accepts a permission-only action on a resource without an entity, with no route', async () => {
    // The fixture's profile offers `edit` (its form's action) and names a screen for `view` only.
    const built = await buildModel(await scratchManifest());
    expect(built.errors).toEqual([]);
    expect(built.model!.areas[1]!.resources[0]!.actions).toEqual(['view', 'edit']);
    expect(built.model!.areas[1]!.resources[0]!.routes.map((route) => route.action)).toEqual(['view']);
  });

  it('reports two resources sharing an API path', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, 'profile-management.json'), (doc) => (doc.resources[0].api = 'vouchers')),
    );
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'DuplicateApiPath', file: VOUCHER, pointer: '/resources/0/path' }),
    ]);
    expect(errors[0]!.message).toContain('profile-management.json:/resources/0/api');
  });

  it('reports a form for an action the resource does not offer, and a form schema ajv rejects', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        doc.resources[0].forms = {
          verify: { schema: { type: 'object', properties: { note: { type: 'string' } } } },
          edit: { schema: { type: 'object', properties: { note: { type: 'string', maxLength: 'long' } } } },
        };
      }),
    );
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'UnknownAction', pointer: '/resources/0/forms/verify' }),
      expect.objectContaining({ kind: 'InvalidEntitySchema', pointer: '/resources/0/forms/edit/schema' }),
    ]);
  });

  it('reports a relation to an unknown resource', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        doc.resources[0].entity.schema.properties.plan_id = { title: 'Plan', type: 'integer' };
        doc.resources[0].entity.relations = { plan_id: { resource: 'PLANS', labelField: 'name' } };
      }),
    );
    expect(errors).toEqual([
      expect.objectContaining({ kind: 'UnknownResource', pointer: '/resources/0/entity/relations/plan_id/resource' }),
    ]);
  });

  it('reports bulkEdit naming a field that is not writable and scalar, and import without a unique key to match rows on', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        const voucher = doc.resources[0];
        voucher.list.bulkEdit = ['discount_value', 'used_count', 'nope'];
        voucher.actions.push('import');
        delete voucher.entity.unique;
      }),
    );
    expect(errors.map((error) => [error.kind, error.file.endsWith(VOUCHER), error.pointer])).toEqual([
      ['UnknownField', true, '/resources/0/list/bulkEdit/1'],
      ['UnknownField', true, '/resources/0/list/bulkEdit/2'],
      ['ImportWithoutKey', true, '/resources/0/actions'],
    ]);
    const model = await buildModel(await scratchManifest());
    expect(model.errors).toEqual([]);
  });

  it('reports a column priority naming a field that is not one of the columns', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        doc.resources[0].list.priority = ['is_active', 'created_at'];
      }),
    );
    expect(errors.map((error) => [error.kind, error.file.endsWith(VOUCHER), error.pointer, error.message])).toEqual([
      [
        'UnknownField',
        true,
        '/resources/0/list/priority/1',
        'the column priority names "created_at", which is not one of the list\'s columns',
      ],
    ]);
  });

  it('reports describe naming a field that is not a stored text or number field, and resolves its parts', async () => {
    const errors = await errorsAfter((dir) =>
      editJson(join(dir, VOUCHER), (doc) => {
        doc.resources[0].describe = ['discount_value', ['code', 'nope'], 'is_active'];
      }),
    );
    expect(errors.map((error) => [error.kind, error.file.endsWith(VOUCHER), error.pointer])).toEqual([
      ['UnknownField', true, '/resources/0/describe/1/1'],
      ['UnknownField', true, '/resources/0/describe/2'],
    ]);
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => {
      doc.resources[0].describe = [['code', 'used_count'], 'discount_value'];
    });
    const { model } = await buildModel(dir);
    const voucher = model!.areas.flatMap((area) => area.resources).find((resource) => resource.key === 'VOUCHER')!;
    expect(voucher.describe).toEqual([['code', 'used_count'], ['discount_value']]);
  });

  it('collects every error at once, across files', async () => {
    const errors = await errorsAfter(async (dir) => {
      await editJson(join(dir, VOUCHER), (doc) => (doc.sidebar.link = '/elsewhere'));
      await editJson(join(dir, 'profile-management.json'), (doc) => (doc.resources[0].screens.view = 'nope'));
    });
    expect(errors.map((error) => error.kind).sort()).toEqual(['SidebarLinkOutsideArea', 'UnknownScreen']);
  });

  it('writes nothing when the manifest is invalid', async () => {
    const dir = await scratchManifest();
    await editJson(join(dir, VOUCHER), (doc) => doc.resources[0].actions.push('approve'));
    const out = await tempDir('out');
    const lines: string[] = [];
    const code = await main(['node', 'admin-codegen', 'generate', '--manifest', dir, '--out', out], {
      log: (l) => lines.push(l),
      error: (l) => lines.push(l),
    });
    expect(code).toBe(1);
    expect(lines[0]).toBe(
      `${VOUCHER}:/resources/0/actions/6: unknown action; expected one of view, add, edit, delete, ACTIVE_INACTIVE, download, view_detail, verify, refresh, SUBSCRIBER_DETAIL, ADD_SUBSCRIPTION, ADD_TOP_UP, executive_access, import`,
    );
    expect(await readdir(out)).toEqual([]);
  });
});
