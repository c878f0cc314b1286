import type { ActionName } from '../../generated/permissions.ts';
import type { FieldDescription, JsonSchema, ResourceDescription } from '../../generated/types.ts';
import { compileValidator } from '../../forms/testing/compileValidator.ts';
import * as profileAreaChunk from '../../generated/areas/profile-management.ts';
import * as subscriberAreaChunk from '../../generated/areas/subscriber-management.ts';
import { joinArea } from '../../routing/areaModule.ts';

const profileArea = joinArea(profileAreaChunk);
const subscriberArea = joinArea(subscriberAreaChunk);

/** The manifest's action forms (with their precompiled validators), so the screens are tested with the real ones. */
function manifestForms(module: ResourceDescription['module']): ResourceDescription['forms'] {
  return (
    [...profileArea.resources, ...subscriberArea.resources].find((resource) => resource.module === module)?.forms ?? {}
  );
}

/** Tests only: a field description with the generator's defaults. */
function field(
  name: string,
  title: string,
  type: FieldDescription['type'],
  extra: Partial<FieldDescription> = {},
): FieldDescription {
  return {
    name,
    title,
    type,
    format: null,
    enum: null,
    enumLabels: null,
    required: false,
    writeOnly: false,
    system: false,
    relation: null,
    ...extra,
  };
}

const SYSTEM_FIELDS = [
  field('id', 'ID', 'integer', { system: true }),
  field('is_active', 'Active', 'boolean', { system: true }),
  field('created_at', 'Created', 'string', { format: 'date-time', system: true }),
  field('version', 'Version', 'integer', { system: true }),
];

function entity(schema: JsonSchema, fields: FieldDescription[]) {
  return {
    createSchema: schema,
    updateSchema: schema,
    fields: [...fields, ...SYSTEM_FIELDS],
    history: true,
    softDelete: true,
    validateCreate: compileValidator(schema),
    validateUpdate: compileValidator(schema),
  };
}

function routes(base: string, actions: readonly ActionName[]): ResourceDescription['routes'] {
  const suffix: Partial<Record<ActionName, string>> = {
    view: '',
    add: '/add',
    view_detail: '/:id',
    edit: '/:id/edit',
    SUBSCRIBER_DETAIL: '/:id/details',
  };
  return Object.fromEntries(
    actions.filter((action) => suffix[action] !== undefined).map((action) => [action, `${base}${suffix[action]}`]),
  );
}

const VOUCHER_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['code', 'discount_value'],
  properties: {
    code: {
      title: 'Code',
      type: 'string',
      maxLength: 20,
      customPattern: { pattern: '^[A-Z0-9]{4,20}$', message: 'Use 4 to 20 capital letters or digits.' },
    },
    discount_type: { title: 'Discount type', type: 'string', enum: ['percent', 'flat'] },
    discount_value: { title: 'Discount value', type: 'number', minimum: 1 },
    valid_to: { title: 'Valid to', type: 'string', format: 'date' },
  },
};
const VOUCHER_ACTIONS: ActionName[] = ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download', 'view_detail'];

/** Tests only: vouchers as the manifest describes them (a subset of fields). */
export const vouchers: ResourceDescription = {
  module: 'VOUCHER',
  area: 'VOUCHER_MANAGEMENT',
  label: 'Vouchers',
  singular: 'Voucher',
  api: 'vouchers',
  actions: VOUCHER_ACTIONS,
  routes: routes('/voucher-management/vouchers', VOUCHER_ACTIONS),
  entity: entity(VOUCHER_SCHEMA, [
    field('code', 'Code', 'string', { required: true }),
    field('discount_type', 'Discount type', 'string', {
      enum: ['percent', 'flat'],
      enumLabels: { percent: 'Percent', flat: 'Flat amount' },
    }),
    field('discount_value', 'Discount value', 'number', { required: true }),
    field('valid_to', 'Valid to', 'string', { format: 'date' }),
    field('used_count', 'Used', 'integer'),
  ]),
  list: {
    columns: ['code', 'discount_type', 'discount_value', 'valid_to', 'used_count', 'is_active'],
    search: ['code'],
    filters: ['discount_type', 'is_active', 'valid_to'],
    sort: { field: 'code', direction: 'asc' },
    pageSize: 20,
    bulkEdit: [],
    priority: ['code', 'discount_value', 'is_active', 'valid_to', 'discount_type', 'used_count'],
  },
  uiSchema: {},
  forms: {},
};

const SUBSCRIBER_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'email', 'country_id'],
  properties: {
    name: { title: 'Name', type: 'string', maxLength: 60, noWhiteSpace: true },
    email: { title: 'Email', type: 'string', format: 'email' },
    country_id: { title: 'Country', type: 'integer', minimum: 1 },
  },
};
const SUBSCRIBER_ACTIONS: ActionName[] = ['view', 'add', 'edit', 'SUBSCRIBER_DETAIL', 'ADD_SUBSCRIPTION', 'ADD_TOP_UP'];

/** Tests only: subscribers, with a relation to countries. */
export const subscribers: ResourceDescription = {
  module: 'SUBSCRIBERS',
  area: 'SUBSCRIBER_MANAGEMENT',
  label: 'Subscribers',
  singular: 'Subscriber',
  api: 'subscribers',
  actions: SUBSCRIBER_ACTIONS,
  routes: routes('/subscriber-management/subscribers', SUBSCRIBER_ACTIONS),
  entity: entity(SUBSCRIBER_SCHEMA, [
    field('name', 'Name', 'string', { required: true }),
    field('email', 'Email', 'string', { format: 'email', required: true }),
    field('country_id', 'Country', 'integer', {
      required: true,
      relation: { resource: 'COUNTRIES', api: 'countries', labelField: 'name' },
    }),
  ]),
  list: {
    columns: ['name', 'email', 'country_id'],
    search: ['name'],
    filters: ['country_id'],
    sort: { field: 'name', direction: 'asc' },
    pageSize: 20,
    bulkEdit: [],
    priority: ['name', 'email', 'country_id'],
  },
  uiSchema: {},
  forms: manifestForms('SUBSCRIBERS'),
};

const ROLE_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { title: 'Name', type: 'string', maxLength: 80, noWhiteSpace: true },
    description: { title: 'Description', type: 'string', maxLength: 500 },
  },
};
const ROLE_ACTIONS: ActionName[] = ['view', 'add', 'edit'];

/** Tests only: roles, edited with the permission matrix. */
export const roles: ResourceDescription = {
  module: 'ROLES',
  area: 'USER_MANAGEMENT',
  label: 'Roles',
  singular: 'Role',
  api: 'roles',
  actions: ROLE_ACTIONS,
  routes: routes('/user-management/roles', ROLE_ACTIONS),
  entity: entity(ROLE_SCHEMA, [
    field('name', 'Name', 'string', { required: true }),
    field('description', 'Description', 'string'),
  ]),
  list: {
    columns: ['name'],
    search: ['name'],
    filters: [],
    sort: { field: 'name', direction: 'asc' },
    pageSize: 20,
    bulkEdit: [],
    priority: ['name'],
  },
  uiSchema: {},
  forms: {},
};

/** Tests only: a module with no entity, served by a custom screen. */
export function customResource(
  module: ResourceDescription['module'],
  api: string,
  actions: ActionName[],
  base: string,
): ResourceDescription {
  return {
    module,
    area: module,
    label: module,
    singular: module,
    api,
    actions,
    routes: routes(base, actions),
    entity: null,
    list: null,
    uiSchema: {},
    forms: manifestForms(module),
  };
}
