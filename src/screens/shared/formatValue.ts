import type { Currency, UnitName } from '../../../contract/description.ts';
import type { FieldDescription } from '../../generated/types.ts';

const LOCALE = 'en-IN';
const dateTime = new Intl.DateTimeFormat(LOCALE, {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const date = new Intl.DateTimeFormat(LOCALE, { day: '2-digit', month: 'short', year: 'numeric', timeZone: 'UTC' });
const month = new Intl.DateTimeFormat('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const moneyFormats = new Map<Currency, Intl.NumberFormat>();
const number = new Intl.NumberFormat(LOCALE);
const percent = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 2 });

export type Row = Record<string, unknown>;

/**
 * A field's value as a person reads it: relation labels, enum labels, dates and months, money (a field of format
 * "money", in its currency) and percentages, yes/no.
 */
export function formatValue(field: FieldDescription | undefined, row: Row, name = field?.name ?? ''): string {
  const value = row[name];
  if (field?.relation) return textOf(row[`${name}_label`] ?? value);
  if (value === null || value === undefined || value === '') return '—';
  if (field?.enumLabels) return enumLabel(field, value);
  if (typeof value === 'boolean') return name === 'is_active' ? (value ? 'Active' : 'Inactive') : value ? 'Yes' : 'No';
  if (typeof value === 'number')
    return field?.format === 'money' ? formatMoney(value, field.currency) : formatNumber(value, unitOf(field, row));
  if (field?.format === 'date-time' || field?.format === 'date') return formatDate(value, field.format === 'date-time');
  if (field?.format === 'period' && typeof value === 'string') return formatMonth(value);
  return textOf(value);
}

/** What people call an enum field's value (the manifest's label), or the value itself when it has none. */
export function enumLabel(field: Pick<FieldDescription, 'enumLabels'>, value: unknown): string {
  return field.enumLabels?.[String(value)] ?? textOf(value);
}

/** An amount of money as people in India write it: ₹1,23,456.50 (the API's amounts are in rupees). */
export function formatMoney(amount: number, currency: Currency = 'INR'): string {
  let format = moneyFormats.get(currency);
  if (!format) moneyFormats.set(currency, (format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency })));
  return format.format(amount);
}

/** A date, or a date and time, as a person reads it. */
export function formatDate(value: unknown, withTime: boolean): string {
  if (typeof value !== 'string' || value === '') return '—';
  const parsed = new Date(value);
  return Number.isNaN(parsed.getTime()) ? value : (withTime ? dateTime : date).format(parsed);
}

/** A month (`2026-09`, a period field's value) as people write it: "Sep 2026". */
export function formatMonth(value: string): string {
  const date = new Date(Date.UTC(Number(value.slice(0, 4)), Number(value.slice(5, 7)) - 1, 1));
  return /^\d{4}-\d{2}$/.test(value) && !Number.isNaN(date.getTime()) ? month.format(date) : value;
}

/** A number in its unit: ₹1,23,456.50, 13%, or 1,23,456. */
export function formatNumber(value: number, unit: UnitName | null): string {
  if (unit === 'rupees') return formatMoney(value);
  return unit === 'percent' ? `${percent.format(value)}%` : number.format(value);
}

/**
 * What a number counts: the manifest's `unit`, or the unit its enum sibling's value in the row picks (a voucher's
 * discount by its type; none when the row lacks it). A number without one is a plain number, whatever its name.
 */
export function unitOf(field: Pick<FieldDescription, 'unit'> | undefined, row: Row): UnitName | null {
  const unit = field?.unit;
  if (typeof unit === 'string') return unit;
  return unit ? (unit.units[String(row[unit.field])] ?? null) : null;
}

function textOf(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (Array.isArray(value)) return value.map(textOf).join(', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}
