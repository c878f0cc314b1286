import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';

/** The currency of an amount whose schema names none (an action form's amount without `format: "money"`). */
const DEFAULT_CURRENCY = 'INR';

/** How people write the currency: ₹ for INR. */
function symbolOf(currency: string): string {
  const parts = new Intl.NumberFormat('en-IN', { style: 'currency', currency }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? currency;
}

/** An amount of money: a decimal input with its currency (the manifest's `currency`) beside it. */
export function MoneyWidget({
  id,
  value,
  required,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
  rawErrors,
  schema,
}: WidgetProps) {
  const parse = (raw: string) => (raw === '' ? undefined : Number(raw));
  const currency = typeof schema.currency === 'string' ? schema.currency : DEFAULT_CURRENCY;
  return (
    <span className="money-input">
      <span className="money-input__symbol" aria-hidden="true">
        {symbolOf(currency)}
      </span>
      <input
        id={id}
        name={id}
        type="number"
        inputMode="decimal"
        step="0.01"
        min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
        className="form-control"
        value={value ?? ''}
        required={required}
        disabled={disabled}
        readOnly={readonly}
        aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
        aria-describedby={`${ariaDescribedByIds(id)} ${id}__currency`}
        onChange={(event) => onChange(parse(event.target.value))}
        onBlur={(event) => onBlur(id, parse(event.target.value))}
        onFocus={(event) => onFocus(id, parse(event.target.value))}
      />
      <span id={`${id}__currency`} className="visually-hidden">
        in {currency}
      </span>
    </span>
  );
}
