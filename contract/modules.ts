/** Module keys the server treats specially (docs/api.md, "Beyond CRUD"); the OpenAPI emitter documents their endpoints. */
export const MODULE = {
  users: 'USERS',
  roles: 'ROLES',
  subscribers: 'SUBSCRIBERS',
  subscriptionPlans: 'SUBSCRIPTIONS',
  vouchers: 'VOUCHER',
  banners: 'BANNER',
  dataUploadLogs: 'DATA_UPLOAD_LOGS',
  uploadedDataReport: 'UPLOADED_DATA_REPORT',
  syncTrendingData: 'SYNC_TRENDING_DATA',
  dataFields: 'DATA_FIELDS_MODULE',
  adminReporting: 'ADMIN_REPORTING',
  executiveProfile: 'EXECUTIVE_PROFILE',
  moduleRegistry: 'MODULE_REGISTRY',
  userProfile: 'USER_PROFILE',
  changePassword: 'CHANGE_PASSWORD',
  auditLog: 'AUDIT_LOG',
} as const;

/** A field special code reads from a module: its name, and the type (and format) the manifest must give it. */
export interface ContractField {
  field: string;
  type: 'string' | 'integer' | 'number';
  format?: 'money';
  /**
   * Who gives its value: `people` (required, never empty: a sale must not read a missing price as 0) or `server` (the
   * server keeps it from its own tables, so the manifest marks it `readOnly` and the form never asks for it).
   */
  givenBy: 'people' | 'server';
  /** A field people give that may be left empty (only what reads it copes with its absence). */
  mayBeEmpty?: true;
  /** The values the server writes into it, every one of which its `enum` must hold. */
  values?: readonly string[];
  /** What reads it, for the codegen's refusal. */
  readBy: string;
}

/** A module's fields as its contract names them, with the words the codegen's refusal uses. */
export interface ModuleContract {
  module: string;
  /** The constant's name in this file, which the refusal names. */
  name: string;
  /** One record of the module, in words ("a plan"). */
  record: string;
  /** Why the module needs an entity at all; null when the server keeps it in a table of its own without one. */
  holds: string | null;
  fields: Record<string, ContractField>;
}

/**
 * What the server reads from each plan of the subscription-plans module (`MODULE.subscriptionPlans`): a sale's plan
 * name, list price, points credited and days of validity; the vouchers, reports and subscriber screens show its name.
 * The codegen refuses a manifest whose plans lack one of them, give it another type or format, or let it be empty.
 */
export const SUBSCRIPTION_PLAN_FIELDS = {
  name: {
    field: 'name',
    type: 'string',
    givenBy: 'people',
    readBy: 'a sale, a voucher and the reports name the plan by it',
  },
  price: {
    field: 'price',
    type: 'number',
    format: 'money',
    givenBy: 'people',
    readBy: 'a sale charges it, less a voucher',
  },
  points: { field: 'points', type: 'integer', givenBy: 'people', readBy: 'a sale credits the subscriber with them' },
  validityDays: { field: 'validity_days', type: 'integer', givenBy: 'people', readBy: 'a sale lasts that many days' },
} as const satisfies Record<string, ContractField>;

/** Where a subscriber stands, as the server's `subscription_state` (server migration 021) says it. */
export const SUBSCRIBER_STATUSES = ['none', 'trial', 'active', 'expiring', 'expired', 'cancelled'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/**
 * What the server keeps on each subscriber of the subscribers module (`MODULE.subscribers`) from its own tables: the
 * status and plan the subscriptions make (sales, cancellations and the daily clock write them; the home screen counts
 * the statuses) and the points balance the ledger leaves. The codegen refuses a manifest whose subscribers lack one,
 * give it another type, let people type it (not `readOnly`) or leave out a status the server writes.
 */
export const SUBSCRIBER_FIELDS = {
  status: {
    field: 'status',
    type: 'string',
    givenBy: 'server',
    values: SUBSCRIBER_STATUSES,
    readBy: 'the subscriptions set it, the daily clock moves it on and the home screen counts it',
  },
  plan: {
    field: 'plan_id',
    type: 'integer',
    givenBy: 'server',
    readBy: 'the subscriptions set it to the plan in force today',
  },
  pointsBalance: {
    field: 'points_balance',
    type: 'integer',
    givenBy: 'server',
    readBy: 'every entry of the points ledger sets it to the balance it leaves',
  },
} as const satisfies Record<string, ContractField>;

/** What the seed writes into each role of the roles module (`MODULE.roles`) it creates, beside the name of its own table. */
export const ROLE_FIELDS = {
  description: {
    field: 'description',
    type: 'string',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'the seed says by it what each role every install has may do',
  },
} as const satisfies Record<string, ContractField>;

/** Every module contract the codegen holds the manifest to; a manifest without the module has nothing to hold. */
export const MODULE_CONTRACTS: readonly ModuleContract[] = [
  {
    module: MODULE.subscriptionPlans,
    name: 'SUBSCRIPTION_PLAN_FIELDS',
    record: 'a plan',
    holds: 'the subscription plans a sale reads',
    fields: SUBSCRIPTION_PLAN_FIELDS,
  },
  {
    module: MODULE.subscribers,
    name: 'SUBSCRIBER_FIELDS',
    record: 'a subscriber',
    holds: 'the subscribers the subscriptions and the points ledger keep',
    fields: SUBSCRIBER_FIELDS,
  },
  {
    module: MODULE.roles,
    name: 'ROLE_FIELDS',
    record: 'a role',
    holds: null,
    fields: ROLE_FIELDS,
  },
];
