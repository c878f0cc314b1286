import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FORM_ERROR_DEBOUNCE_MS } from '../config/constants.ts';
import type { UiSchema } from '@rjsf/utils';
import type { FieldDescription, JsonSchema } from '../generated/types.ts';
import { formUiSchema, MOBILE_HELP } from './formUiSchema.ts';
import { SchemaForm, type ServerFieldErrors } from './index.ts';
import type { FormData } from './precompiledValidator.ts';
import { compileValidator } from './testing/compileValidator.ts';

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { title: 'Name', type: 'string', minLength: 3, maxLength: 5 },
    age: { title: 'Age', type: 'integer', minimum: 18, maximum: 60 },
    code: { title: 'Code', type: 'string', pattern: '^[A-Z]+$' },
    email: { title: 'Email', type: 'string', format: 'email' },
    mobile: { title: 'Mobile', type: 'string', format: 'mobile' },
    pincode: { title: 'Pincode', type: 'string', format: 'pincode' },
    nickname: { title: 'Nickname', type: 'string', noWhiteSpace: true },
    password: { title: 'Password', type: 'string', format: 'password' },
    confirm_password: { title: 'Confirm password', type: 'string', compareTo: 'password' },
    starts_on: { title: 'Starts on', type: 'string', format: 'date' },
    ends_on: { title: 'Ends on', type: 'string', format: 'date', notBefore: 'starts_on' },
    handle: { title: 'Handle', type: 'string', lowercaseOnly: true },
    ip: { title: 'Server IP', type: 'string', format: 'ipv4' },
    amount_text: { title: 'Amount text', type: 'string', validNumber: true },
    quantity: { title: 'Quantity', type: 'string', minmaxnumber: { min: 1, max: 10 } },
    city: { title: 'City', type: 'string', validString: true },
    voucher: {
      title: 'Voucher',
      type: 'string',
      customPattern: { pattern: '^V\\d+$', message: 'Starts with V and digits.' },
    },
    discount: {
      title: 'Discount',
      type: 'number',
      rangeMin: { value: 1, message: 'At least 1 off.' },
      rangeMax: { value: 90, message: 'At most 90 off.' },
    },
    tags: {
      title: 'Tags',
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: ['a', 'b', 'c'] },
      arrayLength: 2,
    },
    regions: {
      title: 'Regions',
      type: 'array',
      uniqueItems: true,
      items: { type: 'string', enum: ['n', 's', 'e', 'w'] },
      arrayLengthMinMaxSelect: { min: 1, max: 2, message: 'Pick one or two regions.' },
    },
  },
};
const validate = compileValidator(SCHEMA);
const voucherField: FieldDescription = {
  name: 'voucher',
  title: 'Voucher',
  type: 'string',
  format: null,
  enum: null,
  enumLabels: null,
  required: false,
  writeOnly: false,
  system: false,
  relation: null,
};

function Harness({
  onSubmit = () => undefined,
  serverErrors = null,
  initial = {},
  uiSchema,
}: {
  onSubmit?: (data: FormData) => void;
  serverErrors?: ServerFieldErrors | null;
  initial?: FormData;
  uiSchema?: UiSchema;
}) {
  const [formData, setFormData] = useState<FormData>(initial);
  return (
    <QueryClientProvider client={new QueryClient()}>
      <SchemaForm
        label="Test form"
        schema={SCHEMA}
        validate={validate}
        uiSchema={uiSchema}
        formData={formData}
        onChange={setFormData}
        onSubmit={onSubmit}
        serverErrors={serverErrors}
        submitLabel="Save"
      />
    </QueryClientProvider>
  );
}

const input = (label: string) => screen.getByLabelText(new RegExp(`^${label}\\*?$`)) as HTMLInputElement;
/** The error shown under a field, linked to it by id. */
const errorOf = (label: string) => document.getElementById(`${input(label).id}__error`)?.textContent ?? null;

async function submitWith(values: Record<string, string>) {
  const user = userEvent.setup();
  for (const [label, value] of Object.entries(values)) {
    await user.clear(input(label));
    await user.type(input(label), value);
  }
  await user.click(screen.getByRole('button', { name: 'Save' }));
}

async function expectError(label: string, message: string) {
  await waitFor(() => expect(errorOf(label)).toBe(message));
}

afterEach(() => {
  vi.useRealTimers();
});

describe('SchemaForm', () => {
  it('FORM-01 shows no error before a field is touched, the error after it is left, and every error after submit', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await new Promise((resolve) => setTimeout(resolve, FORM_ERROR_DEBOUNCE_MS + 50));
    expect(errorOf('Name')).toBeNull();
    await user.type(input('Email'), 'nope');
    await new Promise((resolve) => setTimeout(resolve, FORM_ERROR_DEBOUNCE_MS + 50));
    expect(errorOf('Email')).toBeNull();
    await user.tab();
    await expectError('Email', '* Invalid Email.');
    expect(errorOf('Name')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await expectError('Name', '* This field is required');
    expect(input('Name')).toHaveAttribute('aria-invalid', 'true');
  });

  it('FORM-02 shows a touched field error only once 200 ms have passed since the last change', () => {
    vi.useFakeTimers();
    render(<Harness />);
    fireEvent.change(input('Email'), { target: { value: 'nope' } });
    fireEvent.blur(input('Email'));
    act(() => vi.advanceTimersByTime(FORM_ERROR_DEBOUNCE_MS - 1));
    expect(errorOf('Email')).toBeNull();
    fireEvent.change(input('Email'), { target: { value: 'nope2' } });
    act(() => vi.advanceTimersByTime(FORM_ERROR_DEBOUNCE_MS - 1));
    expect(errorOf('Email')).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(errorOf('Email')).toBe('* Invalid Email.');
  });

  it('FORM-03 a missing required value says "* This field is required" and blocks submit', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await submitWith({});
    await expectError('Name', '* This field is required');
    expect(onSubmit).not.toHaveBeenCalled();
    expect(input('Name')).toHaveFocus();
  });

  it('FORM-04 a value below minLength says "* Expect {required} but got {actual}"', async () => {
    render(<Harness />);
    await submitWith({ Name: 'ab' });
    await expectError('Name', '* Expect 3 but got 2');
  });

  it('FORM-05 a value above maxLength says "* Expect max {required} but got {actual}"', async () => {
    render(<Harness />);
    await submitWith({ Name: 'abcdefg' });
    await expectError('Name', '* Expect max 5 but got 7');
  });

  it('FORM-06 minimum and maximum say "* Min value is {n}" and "* Max value is {n}"', async () => {
    render(<Harness />);
    await submitWith({ Name: 'abc', Age: '12' });
    await expectError('Age', '* Min value is 18');
    await submitWith({ Age: '61' });
    await expectError('Age', '* Max value is 60');
  });

  it('FORM-07 pattern, email, mobile and pincode have their messages', async () => {
    render(<Harness />);
    await submitWith({ Name: 'abc', Code: 'abc', Email: 'a@', Mobile: '12345', Pincode: '012345' });
    await expectError('Code', '* Invalid value.');
    await expectError('Email', '* Invalid Email.');
    await expectError('Mobile', '* Invalid mobile number.');
    await expectError('Pincode', '* Invalid pincode.');
  });

  it('FORM-08 noWhiteSpace, password and lowercaseOnly have their messages', async () => {
    render(<Harness />);
    await submitWith({ Name: 'abc', Nickname: '   ', Password: 'password', Handle: 'MixedCase' });
    await expectError('Nickname', '* Empty or white space not allowed.');
    await expectError('Password', '* Invalid password, Must Have Numbers & Special Character.');
    await expectError('Handle', '* Should be in lowercase.');
  });

  it('FORM-09 validIp, validNumber and compareTo have their messages, compareTo naming its target', async () => {
    render(<Harness />);
    await submitWith({
      Name: 'abc',
      'Server IP': '300.1.1.1',
      'Amount text': '12a',
      Password: 'secret#123',
      'Confirm password': 'secret#124',
    });
    await expectError('Server IP', '* Invalid IP.');
    await expectError('Amount text', '* Should be a number.');
    await expectError('Confirm password', '* Password does not match.');
  });

  it('notBefore: an end date before the start date is shown on the end date, naming the start', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} initial={{ name: 'abc', starts_on: '2026-05-10', ends_on: '2026-05-09' }} />);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Save' }));
    await expectError('Ends on', '* Should be on or after Starts on.');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('FORM-10 minmaxnumber, validString and arrayLength say "* Invalid value."', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.selectOptions(input('Tags'), ['a']);
    await submitWith({ Name: 'abc', Quantity: '11', City: '123' });
    await expectError('Quantity', '* Invalid value.');
    await expectError('City', '* Invalid value.');
    await expectError('Tags', '* Invalid value.');
  });

  it("FORM-11 customPattern, rangeMin, rangeMax and arrayLengthMinMaxSelect show the rule's own message", async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.selectOptions(input('Regions'), ['n', 's', 'e']);
    await submitWith({ Name: 'abc', Voucher: 'X1', Discount: '0.5' });
    await expectError('Voucher', '* Starts with V and digits.');
    await expectError('Discount', '* At least 1 off.');
    await expectError('Regions', '* Pick one or two regions.');
    await submitWith({ Discount: '95' });
    await expectError('Discount', '* At most 90 off.');
  });

  it('FORM-12 shows a server field error on its field with the "* " prefix until the field changes', async () => {
    const user = userEvent.setup();
    render(
      <Harness
        initial={{ name: 'abc', email: 'taken@example.com' }}
        serverErrors={{
          fields: { email: 'This email is already registered' },
          submitted: { name: 'abc', email: 'taken@example.com' },
        }}
      />,
    );
    expect(errorOf('Email')).toBe('* This email is already registered');
    // The field the server refused is brought into view and focused.
    expect(input('Email')).toHaveFocus();
    await user.type(input('Email'), 'x');
    expect(errorOf('Email')).toBeNull();
  });

  it('a field kept in capitals is upper-cased as typed, and phones offer their capitals keyboard', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} uiSchema={formUiSchema([{ ...voucherField, normalise: 'upper' }], {})} />);
    expect(input('Voucher')).toHaveAttribute('autocapitalize', 'characters');
    await submitWith({ Name: 'abcd', Email: 'a@example.com', Voucher: 'v12' });
    expect(input('Voucher')).toHaveValue('V12');
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ voucher: 'V12' }));
  });

  it('a mobile number is taken in its usual spellings, said before anything is typed, and put as its ten digits when left', async () => {
    const user = userEvent.setup();
    const mobileField: FieldDescription = {
      ...voucherField,
      name: 'mobile',
      title: 'Mobile',
      format: 'mobile',
      normalise: 'mobile',
    };
    render(<Harness uiSchema={formUiSchema([mobileField], {})} />);
    expect(screen.getByText(MOBILE_HELP)).toBeInTheDocument();
    await user.type(input('Mobile'), '+91 98765-43210');
    await user.tab();
    expect(input('Mobile')).toHaveValue('9876543210');
    expect(errorOf('Mobile')).toBeNull();
  });

  it('submits valid data only', async () => {
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    await submitWith({ Name: 'abcd', Email: 'a@example.com' });
    expect(onSubmit).toHaveBeenCalledWith({ name: 'abcd', email: 'a@example.com' });
  });
});
