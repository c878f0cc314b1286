import type { WidgetProps } from '@rjsf/utils';
import { useState, type FocusEvent } from 'react';
import { controlAttributes } from './widgetInput.ts';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** The earliest year offered, unless the value is older. */
const FIRST_YEAR = 1990;
const PERIOD = /^(\d{4})-(0[1-9]|1[0-2])$/;

interface Parts {
  month: string;
  year: string;
}

const EMPTY: Parts = { month: '', year: '' };

function partsOf(value: unknown): Parts | null {
  const match = typeof value === 'string' ? PERIOD.exec(value) : null;
  return match ? { year: match[1]!, month: match[2]! } : null;
}

/** Years to choose from, the newest first: up to next year, and the value's year whatever it is. */
export function yearsOffered(now: Date, chosen: string): string[] {
  const last = now.getFullYear() + 1;
  const years = Array.from({ length: last - FIRST_YEAR + 1 }, (_, index) => String(last - index));
  return chosen && !years.includes(chosen) ? [chosen, ...years].sort((a, b) => Number(b) - Number(a)) : years;
}

/**
 * A month of a year ("YYYY-MM", the `period` format) as two selects, month and year: it reads as a month in every
 * browser, where a native month input shows dashes or nothing at all. The value is set once both are chosen.
 */
export function MonthWidget(props: WidgetProps) {
  const { id, value, label, onChange, onBlur, onFocus } = props;
  // A month chosen without its year (or the reverse) is kept here; the form's value stays empty until both are.
  const [partial, setPartial] = useState<Parts>(EMPTY);
  const fromValue = partsOf(value);
  // A complete choice with no value means the form was emptied (a reset): show nothing chosen.
  const shown = fromValue ?? (partial.month && partial.year ? EMPTY : partial);
  const change = (part: keyof Parts, chosen: string) => {
    const next = { ...shown, [part]: chosen };
    setPartial(next);
    onChange(next.month && next.year ? `${next.year}-${next.month}` : undefined);
  };
  const current = typeof value === 'string' ? value : undefined;
  // Touched when focus leaves the pair, not when it moves from the month to the year.
  const left = (event: FocusEvent<HTMLSpanElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget as Node | null)) onBlur(id, current);
  };
  const shared = controlAttributes(props);
  return (
    <span className="month-input" onBlur={left} onFocus={() => onFocus(id, current)}>
      <select {...shared} value={shown.month} onChange={(event) => change('month', event.target.value)}>
        <option value="">Month</option>
        {MONTHS.map((name, index) => (
          <option key={name} value={String(index + 1).padStart(2, '0')}>
            {name}
          </option>
        ))}
      </select>
      <select
        {...shared}
        id={`${id}__year`}
        name={undefined}
        value={shown.year}
        aria-label={`${label} year`}
        onChange={(event) => change('year', event.target.value)}
      >
        <option value="">Year</option>
        {yearsOffered(new Date(), shown.year).map((year) => (
          <option key={year} value={year}>
            {year}
          </option>
        ))}
      </select>
    </span>
  );
}
