import { describe, expect, it } from 'vitest';
import type { AreaModel, ProjectModel, ResourceModel } from '../model.ts';
import { emitPermissions } from './permissions.ts';
import { emitRoutes } from './routes.ts';
import { emitSidebar } from './sidebar.ts';
import { emitTablesSql, searchExpression } from './tablesSql.ts';
import { emitValidators } from './validators.ts';
import { emitOpenApi } from './openapi.ts';
import { emitRegistry } from './registry.ts';
import { GENERATED_NOTICE } from './header.ts';

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
      schema: { type: 'object', properties: { title: { type: 'string', title: 'Title', noWhiteSpace: true } }, required: ['title'], additionalProperties: false },
      createSchema: { type: 'object', properties: { title: { type: 'string', title: 'Title', noWhiteSpace: true } }, required: ['title'], additionalProperties: false },
      updateSchema: { type: 'object', properties: { title: { type: 'string', title: 'Title', noWhiteSpace: true } }, required: ['title'], additionalProperties: false },
      fields: [
        { name: 'title', title: 'Title', type: 'string', format: null, enum: null, required: true, readOnly: false, writeOnly: false, system: false, sqlType: 'text', relation: null },
      ],
      unique: ['title'],
      writeOnly: [],
    },
    list: { columns: ['title'], search: ['title'], filters: [], sort: { field: 'title', direction: 'asc' }, pageSize: 20 },
    uiSchema: {},
    forms: {},
    typeName: 'Banner',
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
    sidebar: { link: '/banner-management/list', label: 'Banner Management', fixed: false, icon: 'image' },
    resources: [resource()],
    file: 'banner-management.json',
    ...overrides,
  };
}

function project(areas: AreaModel[] = [area()]): ProjectModel {
  return { areas, modules: areas.flatMap((a) => [a.key, ...a.resources.map((r) => r.key)]).sort(), actions: ['view', 'add', 'edit', 'delete'] };
}

describe('emitters', () => {
  it('every TS file starts with the generated-file notice', () => {
    for (const text of [emitPermissions(project()), emitRoutes(project()), emitSidebar(project()), emitValidators(area())]) {
      expect(text.startsWith(`// ${GENERATED_NOTICE}`)).toBe(true);
    }
    expect(emitTablesSql(project()).startsWith(`-- ${GENERATED_NOTICE}`)).toBe(true);
    expect(JSON.parse(emitOpenApi(project())).$comment).toBe(GENERATED_NOTICE);
  });

  it('permissions: modules and actions as literal unions, area modules offer view', () => {
    const text = emitPermissions(project());
    expect(text).toContain('export const MODULES = [\n  "BANNER",\n  "BANNER_MANAGEMENT"\n] as const;');
    expect(text).toContain('export type ActionName = (typeof ACTIONS)[number];');
    expect(text).toMatch(/"BANNER_MANAGEMENT": \[\s*"view"\s*\]/);
  });

  it('routes: one lazily loaded chunk per area, with guard and preload', () => {
    const text = emitRoutes(project([area({ preload: true })]));
    expect(text).toContain("load: () => import('./areas/banner-management.ts').then((chunk) => chunk.default),");
    expect(text).toContain("guard: 'none',");
    expect(text).toContain('preload: true,');
    expect(text).toContain('"path": "/banner-management/list/:id/edit"');
  });

  it('sidebar: areas without a sidebar entry are left out', () => {
    const text = emitSidebar(project([area(), area({ key: 'PROFILE_MANAGEMENT', path: 'profile-management', sidebar: null, resources: [] })]));
    expect(text).toContain('"link": "/banner-management/list"');
    expect(text).not.toContain('PROFILE_MANAGEMENT');
  });

  it('tables.sql: tables before columns, unique and trigram search indexes over the shared search expression', () => {
    const sql = emitTablesSql(project());
    expect(sql.indexOf('CREATE TABLE IF NOT EXISTS "banner"')).toBeLessThan(sql.indexOf('ALTER TABLE "banner" ADD COLUMN IF NOT EXISTS "title" text;'));
    expect(sql).toContain('CREATE UNIQUE INDEX IF NOT EXISTS "banner_title_key" ON "banner" ("title");');
    expect(sql).toContain(`USING gin ((${searchExpression(['title'])}) gin_trgm_ops)`);
  });

  it('validators: standalone code with the custom keyword and no compiler or eval', () => {
    const text = emitValidators(area());
    expect(text).toContain('export const BannerCreate = ');
    expect(text).toContain('.trim() === ""');
    expect(text).not.toMatch(/new Function|eval\(|require\(/);
  });

  it("validators: ajv's CommonJS run-time helpers are replaced by the ESM ones of validation/runtime.ts", () => {
    const schema = { type: 'object', properties: { title: { type: 'string', maxLength: 5 } }, additionalProperties: false };
    const entity = { ...resource().entity!, createSchema: schema, updateSchema: schema };
    const text = emitValidators(area({ resources: [resource({ entity })] }));
    expect(text).toContain("import { ucs2length } from '../../../validation/runtime.ts';");
    expect(text).not.toMatch(/from 'ajv/);
  });

  it('registry: an update schema that is the create schema is written once and referred to by name', () => {
    const base = resource();
    const schema = base.entity!.createSchema;
    const text = emitRegistry(project([area({ resources: [resource({ entity: { ...base.entity!, updateSchema: schema } })] })]));
    expect(text.match(/const BannerCreateSchema: Record<string, unknown> = /g)).toHaveLength(1);
    expect(text).not.toContain('BannerUpdateSchema');
    expect(text).toContain('"createSchema": BannerCreateSchema,\n');
    expect(text).toContain('"updateSchema": BannerCreateSchema,\n');
  });

  it('registry: action forms are hoisted like entity schemas and listed by action', () => {
    const topUp = { type: 'object', additionalProperties: false, required: ['points'], properties: { points: { type: 'integer', minimum: 1, maximum: 100 } } };
    const text = emitRegistry(
      project([
        area({
          resources: [
            resource({ key: 'SUBSCRIBERS', typeName: 'Subscribers', actions: ['view', 'ADD_TOP_UP'], forms: { ADD_TOP_UP: { schema: topUp, uiSchema: { points: { 'ui:help': 'x' } } } } }),
            resource({ key: 'USER_PROFILE', typeName: 'UserProfile', entity: null, list: null, actions: ['view', 'edit'], forms: { edit: { schema: topUp, uiSchema: {} } } }),
          ],
        }),
      ]),
    );
    expect(text).toContain('  forms: Record<string, Record<string, unknown>>;');
    // One object used by two forms is written once, under the name of its first use.
    expect(text.match(/const SubscribersAddTopUpFormSchema: Record<string, unknown> = \{\n {2}"type": "object",/g)).toHaveLength(1);
    expect(text).not.toContain('UserProfileEditFormSchema');
    expect(text).toContain('"forms": {\n      "ADD_TOP_UP": SubscribersAddTopUpFormSchema\n    },');
    expect(text).toContain('"forms": {\n      "edit": SubscribersAddTopUpFormSchema\n    },');
    // The server needs no uiSchema.
    expect(text).not.toContain('ui:help');
    expect(emitRegistry(project())).toContain('"forms": {},');
  });

  it('openapi: only the operations the resource offers', () => {
    const document = JSON.parse(emitOpenApi(project()));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths['/banners'])).toEqual(['get', 'post', 'delete']);
    expect(Object.keys(document.paths['/banners/{id}'])).toEqual(['get', 'put', 'delete']);
    expect(document.paths['/banners/{id}/status']).toBeUndefined();
    expect(document.components.schemas.BannerCreate.required).toEqual(['title']);
  });
});
