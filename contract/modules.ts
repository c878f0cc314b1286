/** Module keys the server treats specially (docs/api.md, "Beyond CRUD"); the OpenAPI emitter documents their endpoints. */
export const MODULE = {
  users: 'USERS',
  roles: 'ROLES',
  subscribers: 'SUBSCRIBERS',
  plans: 'SUBSCRIPTIONS',
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
