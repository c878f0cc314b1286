import { describe, expect, it } from 'vitest';
import { createAjv } from './createAjv.ts';
import { displayFieldError, fieldErrors } from './messages.ts';

// The same rules judge input in the browser (precompiled) and on the server (this runtime ajv); these tests
// pin the messages of docs/spec/seed-spec.md section 5 at their one source.
const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: {
    name: { type: 'string', title: 'Name', minLength: 3, maxLength: 5, noWhiteSpace: true },
    age: { type: 'integer', minimum: 18, maximum: 60 },
    code: { type: 'string', pattern: '^[A-Z]+$' },
    email: { type: 'string', format: 'email' },
    mobile: { type: 'string', format: 'mobile' },
    pincode: { type: 'string', format: 'pincode' },
    password: { type: 'string', title: 'Password', format: 'password' },
    confirm: { type: 'string', compareTo: 'password' },
    starts: { type: 'string', title: 'Starts on', format: 'date' },
    ends: { type: 'string', format: 'date', notBefore: 'starts' },
    slug: { type: 'string', lowercaseOnly: true },
    ip: { type: 'string', format: 'ipv4' },
    amount: { type: 'string', validNumber: true },
    range: { type: 'string', minmaxnumber: { min: 1, max: 9 } },
    person: { type: 'string', validString: true },
    tags: { type: 'array', items: { type: 'string' }, arrayLength: 2 },
    voucher: { type: 'string', customPattern: { pattern: '^V', message: 'Must start with V.' } },
    discount: {
      type: 'number',
      rangeMin: { value: 1, message: 'At least 1.' },
      rangeMax: { value: 90, message: 'At most 90.' },
    },
    plans: {
      type: 'array',
      items: { type: 'string' },
      arrayLengthMinMaxSelect: { min: 1, max: 2, message: 'Pick one or two plans.' },
    },
  },
};
const validate = createAjv().compile(schema);

function messages(data: Record<string, unknown>): Record<string, string> {
  validate(data);
  return fieldErrors(validate.errors ?? [], schema, data);
}

describe('shared validation messages', () => {
  it('notBefore: a date before its sibling is refused naming the sibling; the same day, a later day or no sibling pass', () => {
    expect(messages({ name: 'abc', starts: '2026-05-10', ends: '2026-05-09' }).ends).toBe(
      'Should be on or after Starts on.',
    );
    expect(messages({ name: 'abc', starts: '2026-05-10', ends: '2026-05-10' }).ends).toBeUndefined();
    expect(messages({ name: 'abc', starts: '2026-05-10', ends: '2027-01-01' }).ends).toBeUndefined();
    expect(messages({ name: 'abc', ends: '2020-01-01' }).ends).toBeUndefined();
    expect(messages({ name: 'abc', starts: '', ends: '2020-01-01' }).ends).toBeUndefined();
  });
  it('FORM-03 required', () => expect(messages({}).name).toBe('This field is required'));
  it('FORM-04 minlength with required and actual lengths', () =>
    expect(messages({ name: 'ab' }).name).toBe('Expect 3 but got 2'));
  it('FORM-05 maxlength with required and actual lengths', () =>
    expect(messages({ name: 'abcdefg' }).name).toBe('Expect max 5 but got 7'));
  it('FORM-06 min and max', () => {
    expect(messages({ name: 'abc', age: 17 }).age).toBe('Min value is 18');
    expect(messages({ name: 'abc', age: 61 }).age).toBe('Max value is 60');
  });
  it('FORM-07 pattern, email, mobile, pincode', () => {
    const result = messages({ name: 'abc', code: 'x1', email: 'a@', mobile: '12345', pincode: '0123' });
    expect(result).toMatchObject({
      code: 'Invalid value.',
      email: 'Invalid Email.',
      mobile: 'Invalid mobile number.',
      pincode: 'Invalid pincode.',
    });
    expect(messages({ name: 'abc', email: 'ops@tradedata.in', mobile: '9876543210', pincode: '400001' })).toEqual({});
  });
  it('FORM-08 noWhiteSpace, password, lowercaseOnly', () => {
    const result = messages({ name: '    ', password: 'abcdefgh', slug: 'Hs-Codes' });
    expect(result).toMatchObject({
      name: 'Empty or white space not allowed.',
      password: 'Invalid password, Must Have Numbers & Special Character.',
      slug: 'Should be in lowercase.',
    });
    expect(messages({ name: 'abc', password: 'Trade@2026', confirm: 'Trade@2026', slug: 'hs-codes' })).toEqual({});
  });
  it('FORM-09 validIp, validNumber, compareTo naming the target field', () => {
    const result = messages({
      name: 'abc',
      ip: '300.1.1.1',
      amount: '12a',
      password: 'Trade@2026',
      confirm: 'Trade@2025',
    });
    expect(result).toMatchObject({
      ip: 'Invalid IP.',
      amount: 'Should be a number.',
      confirm: 'Password does not match.',
    });
  });
  it('FORM-10 minmaxnumber, validString, arrayLength', () => {
    const result = messages({ name: 'abc', range: '12', person: 'R2-D2', tags: ['one'] });
    expect(result).toMatchObject({ range: 'Invalid value.', person: 'Invalid value.', tags: 'Invalid value.' });
  });
  it('FORM-11 customPattern, rangeMin, rangeMax, arrayLengthMinMaxSelect carry their own message', () => {
    expect(messages({ name: 'abc', voucher: 'X1', discount: 0, plans: [] })).toMatchObject({
      voucher: 'Must start with V.',
      discount: 'At least 1.',
      plans: 'Pick one or two plans.',
    });
    expect(messages({ name: 'abc', discount: 95 }).discount).toBe('At most 90.');
  });
  it('FORM-12 a field error is displayed with the "* " prefix, once', () => {
    expect(displayFieldError('Code already exists')).toBe('* Code already exists');
    expect(displayFieldError('* Code already exists')).toBe('* Code already exists');
  });
  it('reports fields named like Object methods', () => {
    const result = messages({ name: 'abc', toString: 1, constructor: 2 });
    expect(result.toString).toBe('This field is not allowed');
    expect(result.constructor).toBe('This field is not allowed');
  });
  it('names an unknown field instead of dropping it', () =>
    expect(messages({ name: 'abc', __proto__x: 1 }).__proto__x).toBe('This field is not allowed'));

  it('a rule of an if/then is reported on its own field, saying when it applies, and nothing on the form as a whole', () => {
    const rules = {
      type: 'object',
      properties: {
        kind: { type: 'string', title: 'Discount type', enum: ['percent', 'flat'] },
        value: { type: 'number', title: 'Discount value' },
        status: { type: 'string', title: 'Status' },
        plan: { type: 'integer', title: 'Plan' },
      },
      allOf: [
        {
          if: { properties: { kind: { const: 'percent' } }, required: ['kind'] },
          then: { properties: { value: { type: 'number', maximum: 100 } } },
        },
        { if: { properties: { status: { const: 'subscribed' } }, required: ['status'] }, then: { required: ['plan'] } },
      ],
    };
    const check = createAjv().compile(rules);
    const judge = (data: Record<string, unknown>) => {
      check(data);
      return fieldErrors(check.errors ?? [], rules, data);
    };
    expect(judge({ kind: 'percent', value: 120, status: 'subscribed' })).toEqual({
      value: 'Max value is 100 when Discount type is percent.',
      plan: 'Required when Status is subscribed.',
    });
    expect(judge({ kind: 'flat', value: 120, status: 'trial' })).toEqual({});
    expect(judge({ kind: 'percent', value: 100, status: 'subscribed', plan: 2 })).toEqual({});
  });
});
