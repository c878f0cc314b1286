import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { displayFieldError } from '../../validation/index.ts';
import { FORM_ERROR_DEBOUNCE_MS } from '../config/constants.ts';
import { isApiError } from '../http/ApiError.ts';
import type { FieldRule } from './fieldRules.ts';

type Values<F extends string> = Record<F, string>;

export interface AuthField {
  value: string;
  /** The message to show under the field, if any. */
  error: string | undefined;
  onChange: (value: string) => void;
  onBlur: () => void;
}

export interface UseAuthFormResult<F extends string> {
  values: Values<F>;
  field: (name: F) => AuthField;
  /** True while a submission is in flight. */
  busy: boolean;
  /** The message of the last failed submission, which its "Error" toast showed (ERR-01); null when there is none. */
  failure: string | null;
  /**
   * The form's submit handler: the client checks first, then `send`, one submission at a time. A failure keeps
   * what was typed, its message in `failure` (for the screen to know, not to show again) and the server's field
   * errors (FORM-12) on their fields.
   */
  onSubmit: (send: () => Promise<void>) => (event: FormEvent) => void;
}

function check<F extends string>(rules: Record<F, FieldRule[]>, values: Values<F>): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const name of Object.keys(rules) as F[]) {
    for (const rule of rules[name]) {
      const text = rule(values[name], values);
      if (text) {
        errors[name] = text;
        break;
      }
    }
  }
  return errors;
}

/**
 * A tiny form state for the auth screens: errors appear once a field was touched or the form submitted,
 * 200 ms after the value settles (FORM-02's debounce), disappear as soon as the value is fixed, and a server
 * error stays on its field until the value changes.
 */
export function useAuthForm<F extends string>(rules: Record<F, FieldRule[]>): UseAuthFormResult<F> {
  const [values, setValues] = useState(
    () => Object.fromEntries(Object.keys(rules).map((name) => [name, ''])) as Values<F>,
  );
  const [touched, setTouched] = useState<Partial<Record<F, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<F, string>>>({});
  const errors = useMemo(() => check(rules, values), [rules, values]);
  const [settledErrors, setSettledErrors] = useState(errors);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    const timer = setTimeout(() => setSettledErrors(errors), FORM_ERROR_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [errors]);

  /** An error shows once it has stood for the debounce time; a fixed value hides it at once. */
  const settled = (name: F) =>
    errors[name] !== undefined && settledErrors[name] === errors[name] ? errors[name] : undefined;

  return {
    values,
    field: (name) => ({
      value: values[name],
      error: serverErrors[name] ?? (touched[name] || submitted ? settled(name) : undefined),
      onChange: (value) => {
        setValues((current) => ({ ...current, [name]: value }));
        setServerErrors(({ [name]: _dropped, ...rest }) => rest as Partial<Record<F, string>>);
      },
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    }),
    busy,
    failure,
    onSubmit: (send) => (event) => {
      event.preventDefault();
      setSubmitted(true);
      setSettledErrors(errors);
      if (Object.keys(errors).length > 0 || busy) return;
      setBusy(true);
      setFailure(null);
      send()
        .catch((error: unknown) => {
          if (!isApiError(error)) return;
          setFailure(error.message);
          const known = Object.entries(error.fieldErrors).filter(([name]) => name in rules);
          setServerErrors(
            Object.fromEntries(known.map(([name, text]) => [name, displayFieldError(text)])) as Partial<
              Record<F, string>
            >,
          );
        })
        .finally(() => setBusy(false));
    },
  };
}
