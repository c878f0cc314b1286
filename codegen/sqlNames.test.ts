import { describe, expect, it } from 'vitest';
import { uniqueIndexName } from './sqlNames.ts';

describe('uniqueIndexName', () => {
  it('is <table>_<fields>_key, as single-field keys have always been named', () => {
    expect(uniqueIndexName('users', ['email'])).toBe('users_email_key');
    expect(uniqueIndexName('lookups', ['lookup_type_id', 'code'])).toBe('lookups_lookup_type_id_code_key');
  });

  it('keeps a name of 63 bytes, and cuts a longer one to 63 with a hash of the whole name, so long names stay distinct', () => {
    const table = 'company_employee_contacts';
    const field = 'a'.repeat(63 - `${table}__key`.length);
    expect(uniqueIndexName(table, [field])).toBe(`${table}_${field}_key`);
    expect(uniqueIndexName(table, [field])).toHaveLength(63);
    expect(uniqueIndexName(table, [`${field}a`])).toMatch(/^company_employee_contacts_a+_[0-9a-f]{8}_key$/);
    const long = uniqueIndexName(table, ['company_id', 'department_code', 'email_address']);
    const longer = uniqueIndexName(table, ['company_id', 'department_code', 'email_address_2']);
    expect(long).toHaveLength(63);
    expect(long).toMatch(/^company_employee_contacts_company_id_department_co_[0-9a-f]{8}_key$/);
    expect(longer).toHaveLength(63);
    expect(longer).not.toBe(long);
    expect(uniqueIndexName(table, ['company_id', 'department_code', 'email_address'])).toBe(long);
  });
});
