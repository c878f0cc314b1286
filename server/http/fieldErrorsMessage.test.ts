import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, testDatabases, type TestServer } from '../testing/testServer.ts';
import { fieldErrorsMessage } from './fieldErrorsMessage.ts';

const titles: Record<string, string> = { code: 'Code', valid_to: 'Valid until', discount_value: 'Discount value' };
const titleOf = (field: string) => titles[field];

describe('the message of a 400 with field errors', () => {
  it('names one field by its title, with its text as a sentence', () => {
    expect(fieldErrorsMessage({ code: 'This value is already in use.' }, titleOf)).toBe(
      'Code: This value is already in use.',
    );
    expect(fieldErrorsMessage({ code: 'This field is required' }, titleOf)).toBe('Code: This field is required.');
  });

  it('names two fields in the order given, and counts the rest', () => {
    expect(fieldErrorsMessage({ code: 'This value is already in use.', valid_to: 'Invalid value.' }, titleOf)).toBe(
      'Code: This value is already in use; Valid until: Invalid value.',
    );
    expect(fieldErrorsMessage({ code: 'A.', valid_to: 'B.', discount_value: 'C.' }, titleOf)).toBe(
      'Code: A; Valid until: B; and 1 more field.',
    );
    expect(fieldErrorsMessage({ code: 'A.', valid_to: 'B.', discount_value: 'C.', other: 'D.' }, titleOf)).toBe(
      'Code: A; Valid until: B; and 2 more fields.',
    );
  });

  it('words a field no schema gives a title, and says an error on no field as it is', () => {
    expect(fieldErrorsMessage({ amount_paid: 'Min value is 0' }, titleOf)).toBe('Amount paid: Min value is 0.');
    expect(fieldErrorsMessage({ role_id: 'No such role.' }, titleOf)).toBe('Role: No such role.');
    expect(fieldErrorsMessage({ _before: 'Give either _after or _before, not both.' }, titleOf)).toBe(
      'Before: Give either _after or _before, not both.',
    );
    expect(fieldErrorsMessage({ 'rows.valid_to': 'Invalid value.' }, () => undefined)).toBe('Valid to: Invalid value.');
    expect(fieldErrorsMessage({ _: 'Invalid value.' }, titleOf)).toBe('Invalid value.');
  });
});

const databases = await testDatabases();

describe.each(databases)('a 400 names its fields on $kind (ERR-03: the toast shows the message)', ({ kind, skip }) => {
  let server: TestServer;
  let admin: Record<string, string>;
  const call = async (method: 'POST' | 'PUT', url: string, payload: unknown, headers = admin) => {
    const response = await server.app.inject({ method, url: `/api/v1/${url}`, headers, payload: payload as object });
    return { status: response.statusCode, body: response.json<{ message: string; errors?: Record<string, string> }>() };
  };
  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    admin = await server.auth('Super Admin');
  });
  afterAll(async () => server?.close());

  const VOUCHER = {
    code: 'NAMED10',
    discount_type: 'percent',
    discount_value: 10,
    valid_from: '2026-10-01',
    valid_to: '2026-10-31',
  };

  it.skipIf(skip)(
    'a duplicate code: the database refusal is named by the manifest title, the errors are as before',
    async () => {
      expect((await call('POST', 'vouchers', VOUCHER)).status).toBe(201);
      expect(await call('POST', 'vouchers', VOUCHER)).toEqual({
        status: 400,
        body: { message: 'Code: This value is already in use.', errors: { code: 'This value is already in use.' } },
      });
    },
  );

  it.skipIf(skip)("a schema failure on several fields names them in the form's order", async () => {
    const refused = await call('POST', 'vouchers', {
      ...VOUCHER,
      code: undefined,
      discount_value: 'ten',
      valid_to: 'soon',
    });
    expect(refused.status).toBe(400);
    expect(Object.keys(refused.body.errors ?? {}).sort()).toEqual(['code', 'discount_value', 'valid_to']);
    expect(refused.body.message).toBe(
      `Code: This field is required; Discount value: ${refused.body.errors?.discount_value?.replace(/\.$/, '')}; and 1 more field.`,
    );
  });

  it.skipIf(skip)('a refusal of a handler names its field by the title in the route schema', async () => {
    const refused = await call('POST', 'user/change-password', {
      current_password: 'Wrong@12345',
      password: 'Strong@2026',
      confirm_password: 'Strong@2026',
    });
    expect(refused).toEqual({
      status: 400,
      body: {
        message: 'Current password: The current password is not correct.',
        errors: { current_password: 'The current password is not correct.' },
      },
    });
  });
});
