import type { Account } from './journey.ts';

/** The demo accounts the API seeds on first start (docs/demo-data.md, server/seed/roles.ts), one per seeded role. */
export const ADMIN: Account & { role: string } = {
  email: 'admin@example.com',
  password: 'Admin@12345',
  role: 'Super Admin',
};
export const SALES: Account & { role: string } = {
  email: 'sales@example.com',
  password: 'Sales@12345',
  role: 'Sales Executive',
};
export const OPERATOR: Account & { role: string } = {
  email: 'operator@example.com',
  password: 'Operator@12345',
  role: 'Data Operator',
};
export const VIEWER: Account & { role: string } = {
  email: 'viewer@example.com',
  password: 'Viewer@12345',
  role: 'Read Only',
};

export const SEEDED_ACCOUNTS = [ADMIN, SALES, OPERATOR, VIEWER] as const;
