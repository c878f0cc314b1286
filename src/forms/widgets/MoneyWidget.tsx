import type { WidgetProps } from '@rjsf/utils';
import { controlAttributes, valueEvents } from './widgetInput.ts';

/** The currency of an amount whose schema names none (an action form's amount without `format: "money"`). */
const DEFAULT_CURRENCY = 'INR';

/** How people write the currency: ₹ for INR. */
function symbolOf(currency: string): string {
  const parts = new Intl.NumberFormat('en-IN', { style: 'currency', currency }).formatToParts(0);
  return parts.find((part) => part.type === 'currency')?.value ?? currency;
}

/** An amount of money: a decimal input with its currency (the manifest's `currency`) beside it. */
export function MoneyWidget(props: WidgetProps) {
  const { id, value, schema } = props;
  const currency = typeof schema.currency === 'string' ? schema.currency : DEFAULT_CURRENCY;
  return (
    <span className="money-input">
      <span className="money-input__symbol" aria-hidden="true">
        {symbolOf(currency)}
      </span>
      <input
        {...controlAttributes(props, { text: true, describedBy: `${id}__currency` })}
        {...valueEvents<HTMLInputElement>(props, (input) => (input.value === '' ? undefined : Number(input.value)))}
        type="number"
        inputMode="decimal"
        step="0.01"
        min={typeof schema.minimum === 'number' ? schema.minimum : undefined}
        value={value ?? ''}
      />
      <span id={`${id}__currency`} className="visually-hidden">
        in {currency}
      </span>
    </span>
  );
}
