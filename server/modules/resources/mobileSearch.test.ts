import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTITY_RESOURCES } from '../../registry.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { searchTerms } from './searchTerms.ts';

const databases = await testDatabases();

describe('the terms a search looks for', () => {
  it('a mobile number in a usual spelling is also looked for as its ten digits where a searched field keeps them so', () => {
    const employees = ENTITY_RESOURCES.find((resource) => resource.entity.table === 'employees')!;
    expect(searchTerms(employees, '+91 98765 43210')).toEqual(['+91 98765 43210', '9876543210']);
    expect(searchTerms(employees, '98765-43210')).toEqual(['98765-43210', '9876543210']);
    expect(searchTerms(employees, '9876543210')).toEqual(['9876543210']);
    expect(searchTerms(employees, 'Meera')).toEqual(['Meera']);
    expect(searchTerms(employees, '98765 432')).toEqual(['98765 432']);
  });

  it('a resource that searches no mobile field looks for the term as typed', () => {
    const countries = ENTITY_RESOURCES.find((resource) => resource.entity.table === 'countries')!;
    expect(searchTerms(countries, '+91 98765 43210')).toEqual(['+91 98765 43210']);
  });
});

describe.each(databases)('a list search for a mobile number on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const list = async (q: string) => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/v1/employees?q=${encodeURIComponent(q)}`,
      headers: admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: Array<{ id: number; mobile: string }>; meta: { total: number } };
  };
  const employee = { first_name: 'Meera', last_name: 'Shah', department: 'sales', joining_date: '2026-01-05' };
  let meera = 0;

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
    const create = async (email: string, mobile: string) => {
      const created = await server.app.inject({
        method: 'POST',
        url: '/api/v1/employees',
        headers: admin,
        payload: { ...employee, email, mobile },
      });
      expect(created.statusCode, created.body).toBe(201);
      return (created.json() as { data: { id: number } }).data.id;
    };
    meera = await create('meera.search@example.com', '+91 98765 43210');
    await create('other.search@example.com', '9876543211');
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('finds the number stored as ten digits however it is typed, and only it', async () => {
    for (const typed of ['+91 98765 43210', '98765-43210', '(+91) 98765-43210', '098765 43210', '9876543210']) {
      const found = await list(typed);
      expect(
        found.data.map((row) => row.id),
        typed,
      ).toEqual([meera]);
      expect(found.meta.total, typed).toBe(1);
      expect(found.data[0]!.mobile).toBe('9876543210');
    }
    // A part of the digits is a part of the search text as before; a number not stored finds nothing.
    expect((await list('98765')).meta.total).toBe(2);
    expect((await list('+91 98765 43219')).meta.total).toBe(0);
    // The other searched fields match as before.
    expect((await list('meera.search')).data.map((row) => row.id)).toEqual([meera]);
  });

  it.skipIf(skip)('the console-wide search finds it the same way', async () => {
    const response = await server.app.inject({
      method: 'GET',
      url: `/api/v1/search?q=${encodeURIComponent('+91 98765-43210')}&limit=5`,
      headers: admin,
    });
    expect(response.statusCode, response.body).toBe(200);
    const groups = (response.json() as { data: Array<{ records: Array<{ id: number }>; resource: string }> }).data;
    const employees = ENTITY_RESOURCES.find((resource) => resource.entity.table === 'employees')!;
    expect(groups.find((group) => group.resource === employees.key)?.records.map((record) => record.id)).toEqual([
      meera,
    ]);
  });
});
