import { describe, expect, it } from 'vitest';
import type { AreaModel, ProjectModel, ResourceModel } from '../../contract/description.ts';
import { emitPermissions } from './permissions.ts';
import { emitRoutes } from './routes.ts';
import { emitSidebar } from './sidebar.ts';
import { migrationSteps } from '../migrations/migrationSql.ts';
import { noDecisions } from '../migrations/decisions.ts';
import { searchExpression } from '../sqlNames.ts';
import { dataShape } from '../../contract/dataShape.ts';
import { emitValidators } from './validators.ts';
import { joinAreaDescription, readAreaDescription } from '../../contract/writtenDescription.ts';
import { emitAreaDescription, emitAreaModule } from './areaModule.ts';
import { GENERATED_NOTICE } from './header.ts';

/** The area as the server reads it back from its two written files. */
function readBack(model: AreaModel): AreaModel {
  const written = emitAreaDescription(model);
  return joinAreaDescription(JSON.parse(written.console), JSON.parse(written.server));
}

// Small hand-built models: each emitter is a pure function of the model.
function resource(overrides: Partial<ResourceModel> = {}): ResourceModel {
  return {
    key: 'BANNER',
    areaKey: 'BANNER_MANAGEMENT',
    label: 'Banners',
    singular: 'Banner',
    path: 'list',
    api: 'banners',
    order: 0,
    preload: false,
    actions: ['view', 'add', 'edit', 'delete'],
    routes: [
      { action: 'view', path: '/banner-management/list', routable: true, screen: 'list' },
      { action: 'add', path: '/banner-management/list/add', routable: true, screen: 'form' },
      { action: 'edit', path: '/banner-management/list/:id/edit', routable: false, screen: 'form' },
    ],
    entity: {
      table: 'banner',
      readOnlyProperties: {},
      createSchema: {
        type: 'object',
        properties: { title: { type: 'string', title: 'Title', noWhiteSpace: true } },
        required: ['title'],
        additionalProperties: false,
      },
      updateSchema: {
        type: 'object',
        properties: { title: { type: 'string', title: 'Title', noWhiteSpace: true } },
        required: ['title'],
        additionalProperties: false,
      },
      fields: [
        {
          name: 'title',
          title: 'Title',
          type: 'string',
          format: null,
          enum: null,
          enumLabels: null,
          required: true,
          readOnly: false,
          writeOnly: false,
          system: false,
          sqlType: 'text',
          relation: null,
        },
      ],
      unique: [{ fields: ['title'], index: 'banner_title_key' }],
      history: true,
      softDelete: true,
      writeOnly: [],
    },
    list: {
      columns: ['title'],
      search: ['title'],
      filters: [],
      sort: { field: 'title', direction: 'asc' },
      pageSize: 20,
      bulkEdit: [],
      priority: [],
    },
    describe: [],
    uiSchema: {},
    forms: {},
    typeName: 'Banner',
    moduleOrder: 101,
    ...overrides,
  };
}

function area(overrides: Partial<AreaModel> = {}): AreaModel {
  return {
    key: 'BANNER_MANAGEMENT',
    label: 'Banner Management',
    path: 'banner-management',
    order: 1,
    guard: 'none',
    layout: 'admin',
    preload: false,
    sidebar: { link: '/banner-management/list', label: 'Banners', fixed: false, group: 'Website', icon: 'image' },
    resources: [resource()],
    file: 'banner-management.json',
    moduleOrder: 100,
    ...overrides,
  };
}

function project(areas: AreaModel[] = [area()]): ProjectModel {
  return {
    areas,
    modules: areas.flatMap((a) => [a.key, ...a.resources.map((r) => r.key)]).sort(),
    actions: ['view', 'add', 'edit', 'delete'],
  };
}

/** The SQL of the first migration of a model's tables, as make-migration writes it. */
function firstMigrationSql(model: ProjectModel): string {
  const steps = migrationSteps({
    previous: null,
    next: dataShape(model.areas),
    decisions: noDecisions(),
    defaults: new Map(),
    number: '0001',
  });
  return steps.map((step) => step.sql).join('\n');
}

describe('emitters', () => {
  it('every TS file starts with the generated-file notice', () => {
    for (const text of [
      emitPermissions(project()),
      emitRoutes(project()),
      emitSidebar(project()),
      emitValidators(area()),
    ]) {
      expect(text.startsWith(`// ${GENERATED_NOTICE}`)).toBe(true);
    }
  });

  it('permissions: modules and actions as literal unions, area modules offer view', () => {
    const text = emitPermissions(project());
    expect(text).toContain('export const MODULES = [\n  "BANNER",\n  "BANNER_MANAGEMENT"\n] as const;');
    expect(text).toContain('export type ActionName = (typeof ACTIONS)[number];');
    expect(text).toMatch(/"BANNER_MANAGEMENT": \[\s*"view"\s*\]/);
  });

  it('routes: one lazily loaded chunk per area, with guard and preload', () => {
    const text = emitRoutes(project([area({ preload: true })]));
    expect(text).toContain("load: () => import('./areas/banner-management.ts').then(joinArea),");
    expect(text).toContain("guard: 'none',");
    expect(text).toContain('preload: true,');
    expect(text).toContain('"path": "/banner-management/list/:id/edit"');
  });

  it("routes: each area lists its resources with a routable view screen, under their labels, for the area's navigation", () => {
    const text = emitRoutes(project([area()]));
    const resources = /resources: (\[[\s\S]*?\]),\n/.exec(text)?.[1] ?? '';
    expect(resources).toContain('"label": "Banners"');
    expect(resources).toContain('"path": "/banner-management/list"');
    expect(resources).not.toContain(':id');
  });

  it('routes: a resource whose deletes go to its trash has a trash screen beside its list, guarded by view and never a landing path', () => {
    const trashRoute =
      '"path": "/banner-management/list/trash",\n        "routable": false,\n        "screen": "trash"';
    expect(emitRoutes(project([area()]))).toContain(`"action": "view",\n        ${trashRoute}`);
    const kept = resource();
    const noTrash = resource({ entity: { ...kept.entity!, softDelete: false } });
    expect(emitRoutes(project([area({ resources: [noTrash] })]))).not.toContain('/trash');
  });

  it('sidebar: areas without a sidebar entry are left out', () => {
    const text = emitSidebar(
      project([area(), area({ key: 'PROFILE_MANAGEMENT', path: 'profile-management', sidebar: null, resources: [] })]),
    );
    expect(text).toContain('"link": "/banner-management/list"');
    expect(text).not.toContain('PROFILE_MANAGEMENT');
  });

  it('sidebar: each entry carries its heading (null for none) and its icon', () => {
    const ungrouped = area({
      key: 'CATEGORY_MANAGEMENT',
      path: 'category-management',
      order: 2,
      sidebar: { link: '/category-management', label: 'Categories', fixed: false, group: null, icon: 'folder' },
    });
    const text = emitSidebar(project([area(), ungrouped]));
    expect(text).toContain(
      '"label": "Banners",\n    "link": "/banner-management/list",\n    "fixed": false,\n    "group": "Website",\n    "icon": "image"',
    );
    expect(text).toContain('"group": null,\n    "icon": "folder"');
  });

  it('first migration: tables before columns, unique and trigram search indexes over the shared search expression', () => {
    const sql = firstMigrationSql(project());
    expect(sql.indexOf('CREATE TABLE IF NOT EXISTS "banner"')).toBeLessThan(
      sql.indexOf('ALTER TABLE "banner" ADD COLUMN IF NOT EXISTS "title" text;'),
    );
    expect(sql).toContain('CREATE UNIQUE INDEX IF NOT EXISTS "banner_title_key" ON "banner" ("title");');
    expect(sql).toContain(`USING gin ((${searchExpression(['title'])}) gin_trgm_ops)`);
  });

  it('first migration and registry: a composite unique key is one unique index over its fields in order, under its name', () => {
    const base = resource().entity!;
    const typeId = { ...base.fields[0]!, name: 'type_id', title: 'Type', type: 'integer' as const, sqlType: 'bigint' };
    const entity = {
      ...base,
      fields: [typeId, ...base.fields],
      unique: [...base.unique, { fields: ['type_id', 'title'], index: 'banner_type_id_title_key' }],
    };
    const model = project([area({ resources: [resource({ entity })] })]);
    const sql = firstMigrationSql(model);
    expect(sql).toContain('CREATE UNIQUE INDEX IF NOT EXISTS "banner_title_key" ON "banner" ("title");');
    expect(sql).toContain(
      'CREATE UNIQUE INDEX IF NOT EXISTS "banner_type_id_title_key" ON "banner" ("type_id", "title");',
    );
    // After the columns it covers, so applying the file to an older table adds them first.
    expect(sql.indexOf('"banner_type_id_title_key"')).toBeGreaterThan(
      sql.indexOf('ADD COLUMN IF NOT EXISTS "type_id"'),
    );
    const described = readBack(model.areas[0]!);
    expect(described.resources[0]!.entity!.unique).toEqual([
      { fields: ['title'], index: 'banner_title_key' },
      { fields: ['type_id', 'title'], index: 'banner_type_id_title_key' },
    ]);
  });

  it('validators: standalone code with the custom keyword and no compiler or eval', () => {
    const text = emitValidators(area());
    expect(text).toContain('export const BannerCreate = ');
    expect(text).toContain('.trim() === ""');
    expect(text).not.toMatch(/new Function|eval\(|require\(/);
  });

  it("validators: ajv's CommonJS run-time helpers are replaced by the ESM ones of validation/runtime.ts", () => {
    const schema = {
      type: 'object',
      properties: { title: { type: 'string', maxLength: 5 } },
      additionalProperties: false,
    };
    const entity = { ...resource().entity!, createSchema: schema, updateSchema: schema };
    const text = emitValidators(area({ resources: [resource({ entity })] }));
    expect(text).toContain("import { ucs2length } from '../../../validation/runtime.ts';");
    expect(text).not.toMatch(/from 'ajv/);
  });

  it('area description: an update schema that is the create schema is written once and read back as the same object', () => {
    const base = resource();
    const schema = base.entity!.createSchema;
    const text = emitAreaDescription(
      area({ resources: [resource({ entity: { ...base.entity!, updateSchema: schema } })] }),
    ).console;
    expect(text.match(/"createSchema"/g)).toHaveLength(1);
    expect(text).not.toContain('"updateSchema"');
    const entity = readAreaDescription(JSON.parse(text)).resources[0]!.entity!;
    expect(entity.updateSchema).toBe(entity.createSchema);
    const differing = { ...schema, required: [] };
    const both = readAreaDescription(
      JSON.parse(
        emitAreaDescription(area({ resources: [resource({ entity: { ...base.entity!, updateSchema: differing } })] }))
          .console,
      ),
    );
    expect(both.resources[0]!.entity!.updateSchema).toEqual(differing);
  });

  it("area description: the console's file holds no fact only the server reads, and the two files read back as the model", () => {
    const withRelation = resource({
      entity: {
        ...resource().entity!,
        fields: [
          ...resource().entity!.fields,
          {
            name: 'type_id',
            title: 'Type',
            type: 'integer',
            format: null,
            enum: null,
            enumLabels: null,
            required: false,
            readOnly: false,
            writeOnly: false,
            system: false,
            sqlType: 'bigint',
            relation: { resource: 'BANNER_TYPES', labelField: 'name', table: 'banner_types', api: 'banner-types' },
          },
          {
            name: 'secret',
            title: 'Secret',
            type: 'string',
            format: null,
            enum: null,
            enumLabels: null,
            required: false,
            readOnly: false,
            writeOnly: true,
            system: false,
            sqlType: 'text',
            relation: null,
          },
        ],
        writeOnly: ['secret'],
      },
    });
    const model = area({ resources: [withRelation] });
    const written = emitAreaDescription(model);
    for (const serverOnly of [
      '"table"',
      '"sqlType"',
      '"readOnly"',
      '"unique"',
      '"typeName"',
      '"moduleOrder"',
      '"banner_types"',
      '"banner_title_key"',
      '"screen"',
      '"routable"',
      '"readOnlyProperties"',
      '"sidebar"',
      '"guard"',
    ]) {
      expect(written.console, serverOnly).not.toContain(serverOnly);
    }
    expect(JSON.parse(written.console).resources[0].routes).toEqual({
      view: '/banner-management/list',
      add: '/banner-management/list/add',
      edit: '/banner-management/list/:id/edit',
    });
    expect(readBack(model)).toEqual(model);
  });

  it('area description: the two files are joined by module key and field name, in any order; a file missing one of the other stops the reading, naming it', () => {
    const second = resource({
      key: 'BANNER_TYPES',
      path: 'types',
      api: 'banner-types',
      typeName: 'BannerTypes',
      moduleOrder: 102,
    });
    const model = area({ resources: [resource(), second] });
    const written = emitAreaDescription(model);
    const server = JSON.parse(written.server) as {
      resources: Record<string, { entity: { fields: Record<string, unknown> } }>;
    };
    // Reordered keys: still the same model.
    const reordered = { ...server, resources: Object.fromEntries(Object.entries(server.resources).reverse()) };
    expect(joinAreaDescription(JSON.parse(written.console), reordered)).toEqual(model);

    const { BANNER_TYPES: _dropped, ...oneResource } = server.resources;
    expect(() => joinAreaDescription(JSON.parse(written.console), { ...server, resources: oneResource })).toThrow(
      "The generated description does not match itself (area BANNER_MANAGEMENT: resources; only in the console's file: BANNER_TYPES): run npm run generate.",
    );
    const fieldName = Object.keys(server.resources.BANNER!.entity.fields)[0]!;
    const renamed = structuredClone(server);
    const fields = renamed.resources.BANNER!.entity.fields;
    fields.renamed_field = fields[fieldName];
    delete fields[fieldName];
    expect(() => joinAreaDescription(JSON.parse(written.console), renamed)).toThrow(
      `The generated description does not match itself (module BANNER: fields; only in the console's file: ${fieldName}; only in the server's file: renamed_field): run npm run generate.`,
    );
  });

  it('area chunk: an area with nothing to validate is its description alone, with nothing left out of it', () => {
    const model = area({
      resources: [
        resource({
          key: 'MODULE_REGISTRY',
          entity: null,
          list: null,
          actions: ['view'],
          routes: [{ action: 'view', path: '/developers/modules', routable: true, screen: 'developers' }],
        }),
      ],
    });
    const chunk = emitAreaModule(model);
    expect(chunk).not.toContain('validators');
    expect(chunk).toContain("export { default as written } from './banner-management.json';");
    const written = JSON.parse(emitAreaDescription(model).console);
    expect(readAreaDescription(structuredClone(written))).toEqual(written);
  });

  it('area chunk: action forms are listed by action, each with its precompiled validator', () => {
    const topUp = {
      type: 'object',
      additionalProperties: false,
      required: ['points'],
      properties: { points: { type: 'integer', minimum: 1, maximum: 100 } },
    };
    const model = area({
      resources: [
        resource({
          key: 'SUBSCRIBERS',
          typeName: 'Subscribers',
          actions: ['view', 'ADD_TOP_UP'],
          forms: { ADD_TOP_UP: { schema: topUp, uiSchema: { points: { 'ui:help': 'x' } } } },
        }),
        resource({
          key: 'USER_PROFILE',
          typeName: 'UserProfile',
          entity: null,
          list: null,
          actions: ['view', 'edit'],
          forms: { edit: { schema: topUp, uiSchema: {} } },
        }),
      ],
    });
    const chunk = emitAreaModule(model);
    expect(chunk).toContain("export { default as written } from './banner-management.json';");
    expect(chunk).toContain(
      '  SUBSCRIBERS: { create: compiled.SubscribersCreate, update: compiled.SubscribersUpdate, forms: { ADD_TOP_UP: compiled.SubscribersAddTopUpForm } },',
    );
    expect(chunk).toContain('  USER_PROFILE: { forms: { edit: compiled.UserProfileEditForm } },');
    const described = readBack(model);
    expect(described.resources[0]!.forms).toEqual({
      ADD_TOP_UP: { schema: topUp, uiSchema: { points: { 'ui:help': 'x' } } },
    });
    expect(described.resources[1]!.forms).toEqual({ edit: { schema: topUp, uiSchema: {} } });
  });
});
