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
  /** What reads it, for the codegen's refusal. */
  readBy: string;
}

/**
 * What the server reads from each plan of the subscription-plans module (`MODULE.subscriptionPlans`): a sale's plan
 * name, list price, points credited and days of validity; the vouchers, reports and subscriber screens show its name.
 * The codegen refuses a manifest whose plans lack one of them, give it another type or format, or let it be empty.
 */
export const SUBSCRIPTION_PLAN_FIELDS = {
  name: { field: 'name', type: 'string', readBy: 'a sale, a voucher and the reports name the plan by it' },
  price: { field: 'price', type: 'number', format: 'money', readBy: 'a sale charges it, less a voucher' },
  points: { field: 'points', type: 'integer', readBy: 'a sale credits the subscriber with them' },
  validityDays: { field: 'validity_days', type: 'integer', readBy: 'a sale lasts that many days' },
} as const satisfies Record<string, ContractField>;
