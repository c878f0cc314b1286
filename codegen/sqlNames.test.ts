import { describe, expect, it } from 'vitest';
import {
  foreignKeyName,
  primaryKeyName,
  relationIndexName,
  removedValuesTableName,
  searchIndexName,
  sortIndexName,
  uniqueIndexName,
} from './sqlNames.ts';

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

describe('the other names a migration derives', () => {
  it('are the names PostgreSQL gives or the former tables.sql wrote, and fit in 63 bytes keeping their ending', () => {
    expect(foreignKeyName('vouchers', 'plan_id')).toBe('vouchers_plan_id_fkey');
    expect(relationIndexName('vouchers', 'plan_id')).toBe('vouchers_plan_id_idx');
    expect(searchIndexName('vouchers')).toBe('vouchers_search_idx');
    expect(sortIndexName('vouchers', 'created_at')).toBe('vouchers_created_at_sort_idx');
    expect(primaryKeyName('vouchers')).toBe('vouchers_pkey');
    expect(removedValuesTableName('vouchers', '0007')).toBe('vouchers_removed_0007');
    const table = 'company_employee_contacts_with_a_rather_long_name';
    for (const name of [
      foreignKeyName(table, 'department_code_id'),
      removedValuesTableName(table, '0012'),
      sortIndexName(table, 'department_code'),
    ]) {
      expect(name.length).toBeLessThanOrEqual(63);
    }
    expect(removedValuesTableName(`${table}_and_more`, '0012')).toMatch(
      /^company_employee_contacts_with_a_rather_l_[0-9a-f]{8}_removed_0012$/,
    );
  });
});
