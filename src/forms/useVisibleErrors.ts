import { useEffect, useState } from 'react';
import { FORM_ERROR_DEBOUNCE_MS } from '../config/constants.ts';

export interface UseVisibleErrorsOptions {
  /** Fields the user has left at least once. */
  touched: ReadonlySet<string>;
  /** The form was submitted at least once: every error shows. */
  submitted: boolean;
}

/**
 * The errors the user may see: those of touched fields, or all after a submit (FORM-01), settled
 * FORM_ERROR_DEBOUNCE_MS after the last change, blur or submit so they do not flicker while typing (FORM-02).
 * `errors` must be a new object whenever the form data changes.
 */
export function useVisibleErrors(
  errors: Record<string, string>,
  { touched, submitted }: UseVisibleErrorsOptions,
): Record<string, string> {
  const [visible, setVisible] = useState<Record<string, string>>({});
  useEffect(() => {
    const timer = setTimeout(() => {
      const shown = Object.entries(errors).filter(([field]) => submitted || touched.has(field.split('.')[0] ?? field));
      setVisible((previous) =>
        JSON.stringify(previous) === JSON.stringify(Object.fromEntries(shown)) ? previous : Object.fromEntries(shown),
      );
    }, FORM_ERROR_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [errors, touched, submitted]);
  return visible;
}
