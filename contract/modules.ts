import type { ContractField, ModuleContract } from './moduleContract.ts';
import { VOUCHER_FIELDS } from './voucherFields.ts';

export { VOUCHER_FIELDS, type DiscountType } from './voucherFields.ts';

/**
 * Actions that narrow what a role sees rather than grant anything (an executive sees only their own subscribers):
 * full access leaves them out, and an API token always carries its creator's.
 */
export const NARROWING_ACTIONS: ReadonlySet<string> = new Set(['executive_access']);

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
  apiTokens: 'API_TOKENS',
  webhooks: 'WEBHOOKS',
} as const;

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

/** The trade directions an upload and a data column name; a data column may serve both. */
export const TRADE_DIRECTIONS = ['import', 'export'] as const;

/**
 * What an upload's import reads from each column of the data-column module (`MODULE.dataFields`): the name a trade
 * file's header gives it, the type its cells are read as, whether a file must have it, and the trade direction it is
 * for. The codegen refuses a manifest whose data columns lack one, or give it another type or fewer values.
 */
export const DATA_COLUMN_FIELDS = {
  columnName: {
    field: 'column_name',
    type: 'string',
    givenBy: 'people',
    readBy: "a trade file's header names the column by it",
  },
  dataType: {
    field: 'data_type',
    type: 'string',
    givenBy: 'people',
    values: ['string', 'number', 'date'],
    readBy: "a trade file's cells of the column are read as that type",
  },
  isRequired: {
    field: 'is_required',
    type: 'boolean',
    givenBy: 'people',
    mayBeEmpty: true,
    readBy: 'a trade file without a required column is refused',
  },
  tradeDirection: {
    field: 'trade_direction',
    type: 'string',
    givenBy: 'people',
    values: [...TRADE_DIRECTIONS, 'both'],
    readBy: 'an upload reads the columns of its trade direction, and those of both',
  },
} as const satisfies Record<string, ContractField>;

/**
 * What the uploads module reads from each upload of the data-upload module (`MODULE.dataUploadLogs`): the country,
 * trade direction and month its file covers (the import's partition, its duplicates, the review's comparison), the
 * file's name and size, and the status and row counts the import keeps. The codegen refuses a manifest whose uploads
 * lack one, give it another type or format, let people type what the server keeps, or leave out a status it writes.
 */
export const DATA_UPLOAD_FIELDS = {
  country: {
    field: 'country_id',
    type: 'integer',
    givenBy: 'people',
    readBy: 'an import, its duplicates and its review are by country',
  },
  tradeDirection: {
    field: 'trade_direction',
    type: 'string',
    givenBy: 'people',
    values: TRADE_DIRECTIONS,
    readBy: 'an import reads the data columns of its trade direction',
  },
  period: {
    field: 'period',
    type: 'string',
    format: 'period',
    givenBy: 'people',
    readBy: "an import's records are kept by the month they cover",
  },
  fileName: { field: 'file_name', type: 'string', givenBy: 'people', readBy: 'the stored file is named by it' },
  size: { field: 'size', type: 'integer', givenBy: 'people', readBy: 'the file must arrive at that size' },
  status: {
    field: 'status',
    type: 'string',
    givenBy: 'server',
    values: [
      'pending',
      'processing',
      'needs_review',
      'published',
      'rejected',
      'failed',
      'cancelled',
      'replaced',
      'abandoned',
    ],
    readBy: 'the import, its review and the home screen set and read it',
  },
  rowsTotal: { field: 'rows_total', type: 'integer', givenBy: 'server', readBy: 'the import counts the rows read' },
  rowsAccepted: {
    field: 'rows_accepted',
    type: 'integer',
    givenBy: 'server',
    readBy: 'the import counts the rows kept, which the review compares',
  },
  rowsRejected: {
    field: 'rows_rejected',
    type: 'integer',
    givenBy: 'server',
    readBy: 'the import counts the rows refused, which the review compares',
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
    module: MODULE.vouchers,
    name: 'VOUCHER_FIELDS',
    record: 'a voucher',
    holds: 'the vouchers a sale reads',
    fields: VOUCHER_FIELDS,
  },
  {
    module: MODULE.roles,
    name: 'ROLE_FIELDS',
    record: 'a role',
    holds: null,
    fields: ROLE_FIELDS,
  },
  {
    module: MODULE.dataFields,
    name: 'DATA_COLUMN_FIELDS',
    record: 'a data column',
    holds: 'the columns an upload reads',
    fields: DATA_COLUMN_FIELDS,
  },
  {
    module: MODULE.dataUploadLogs,
    name: 'DATA_UPLOAD_FIELDS',
    record: 'an upload',
    holds: 'the uploads the import reads',
    fields: DATA_UPLOAD_FIELDS,
  },
];
