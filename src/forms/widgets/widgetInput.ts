import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';

/** What the widget knows beyond rjsf: a text input (focusable when read-only), a refusal of its own, more that describes it. */
interface ControlOptions {
  text?: boolean;
  invalid?: boolean;
  describedBy?: string | null;
}

/**
 * The attributes a widget's own input or select shares with every other: its id and name, the form's look, required,
 * locked when the field is disabled or read-only, refused and described as rjsf says.
 */
export function controlAttributes(
  { id, required, disabled, readonly, rawErrors }: WidgetProps,
  { text, invalid, describedBy }: ControlOptions = {},
) {
  return {
    id,
    name: id,
    className: 'form-control',
    required,
    disabled: text ? disabled : disabled || readonly,
    readOnly: text && readonly,
    'aria-invalid': (rawErrors?.length ?? 0) > 0 || invalid || undefined,
    'aria-describedby': describedBy ? `${ariaDescribedByIds(id)} ${describedBy}` : ariaDescribedByIds(id),
  };
}

/** A control's change, blur and focus, each telling rjsf the field's value as `read` takes it from the control. */
export function valueEvents<C extends HTMLInputElement | HTMLSelectElement>(
  { id, onChange, onBlur, onFocus }: WidgetProps,
  read: (control: C) => unknown,
) {
  return {
    onChange: (event: { target: C }) => onChange(read(event.target)),
    onBlur: (event: { target: C }) => onBlur(id, read(event.target)),
    onFocus: (event: { target: C }) => onFocus(id, read(event.target)),
  };
}
