import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../../generated/types.ts';
import { formUiSchema } from '../formUiSchema.ts';
import { SchemaForm } from '../index.ts';
import type { FormData } from '../precompiledValidator.ts';
import { compileValidator } from '../testing/compileValidator.ts';
import { yearsOffered } from './MonthWidget.tsx';

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['period'],
  properties: { period: { title: 'Period', type: 'string', format: 'period', maxLength: 7 } },
};
const validate = compileValidator(SCHEMA);
const UI = formUiSchema([{ name: 'period', type: 'string', format: 'period' } as never], {});

function Harness({
  initial = {},
  onSubmit = () => undefined,
}: {
  initial?: FormData;
  onSubmit?: (data: FormData) => void;
}) {
  const [formData, setFormData] = useState<FormData>(initial);
  return (
    <>
      <SchemaForm
        label="Report"
        schema={SCHEMA}
        uiSchema={UI}
        validate={validate}
        formData={formData}
        onChange={setFormData}
        onSubmit={onSubmit}
        submitLabel="Save"
      />
      <output aria-label="Value">{JSON.stringify(formData.period ?? null)}</output>
      <button type="button" onClick={() => setFormData({})}>
        Empty
      </button>
    </>
  );
}

const month = () => screen.getByRole('combobox', { name: /^Period( \*)?$/ }) as HTMLSelectElement;
const year = () => screen.getByRole('combobox', { name: 'Period year' }) as HTMLSelectElement;
const value = () => screen.getByRole('status', { name: 'Value' }).textContent;

describe('MonthWidget', () => {
  it('shows a period as a month name and a year, in two selects labelled by the field', () => {
    render(<Harness initial={{ period: '2026-10' }} />);
    expect(month()).toHaveDisplayValue('October');
    expect(year()).toHaveDisplayValue('2026');
    expect(month().options).toHaveLength(13);
    expect(month().options[1]?.textContent).toBe('January');
  });

  it('sets the value YYYY-MM once both are chosen, keeping a month chosen alone without setting any', async () => {
    const user = userEvent.setup();
    const submitted: FormData[] = [];
    render(<Harness onSubmit={(data) => submitted.push(data)} />);
    expect(month()).toHaveDisplayValue('Month');
    expect(year()).toHaveDisplayValue('Year');
    await user.selectOptions(month(), 'September');
    expect(value()).toBe('null');
    expect(month()).toHaveDisplayValue('September');
    await user.selectOptions(year(), '2025');
    expect(value()).toBe('"2025-09"');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(submitted).toEqual([{ period: '2025-09' }]);
    // Taking the month back empties the value, and the year stays chosen.
    await user.selectOptions(month(), 'Month');
    expect(value()).toBe('null');
    expect(year()).toHaveDisplayValue('2025');
  });

  it('says a missing period is required on both selects, and focuses the month on submit', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(month()).toHaveAccessibleDescription(/^\* This field is required/));
    expect(year()).toHaveAccessibleDescription(/^\* This field is required/);
    expect(month()).toHaveAttribute('aria-invalid', 'true');
    expect(month()).toHaveFocus();
  });

  it('shows nothing chosen when the form is emptied after a choice', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.selectOptions(month(), 'March');
    await user.selectOptions(year(), '2024');
    await user.click(screen.getByRole('button', { name: 'Empty' }));
    expect(month()).toHaveDisplayValue('Month');
    expect(year()).toHaveDisplayValue('Year');
  });

  it('offers the years up to next year, newest first, and an older year when the value has one', () => {
    const years = yearsOffered(new Date(2026, 4, 1), '');
    expect(years[0]).toBe('2027');
    expect(years.at(-1)).toBe('1990');
    expect(yearsOffered(new Date(2026, 4, 1), '1985').at(-1)).toBe('1985');
  });
});
