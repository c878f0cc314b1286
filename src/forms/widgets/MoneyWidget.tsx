import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';

/** The currency amounts are in (the service bills in Indian rupees). */
export const CURRENCY = 'INR';
const SYMBOL = '₹';

/** An amount of money: a decimal input with the currency beside it. */
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
  return (
    <span className="money-input">
      <span className="money-input__symbol" aria-hidden="true">
        {SYMBOL}
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
        in {CURRENCY}
      </span>
    </span>
  );
}
