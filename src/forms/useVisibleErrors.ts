import { useEffect, useMemo, useState } from 'react';
import { FORM_ERROR_DEBOUNCE_MS } from './constants.ts';

export interface UseVisibleErrorsOptions {
  /** Fields the user has left at least once. */
  touched: ReadonlySet<string>;
  /** The form was submitted at least once: every error shows. */
  submitted: boolean;
}

/**
 * The errors the user may see: those of touched fields, or all after a submit (FORM-01), shown
 * FORM_ERROR_DEBOUNCE_MS after the errors last changed so they do not flicker while typing (FORM-02).
 */
export function useVisibleErrors(errors: Record<string, string>, { touched, submitted }: UseVisibleErrorsOptions): Record<string, string> {
  const key = useMemo(() => {
    const entries = Object.entries(errors).filter(([field]) => submitted || touched.has(topLevel(field)));
    return JSON.stringify(entries);
  }, [errors, touched, submitted]);
  const [visible, setVisible] = useState('[]');
  useEffect(() => {
    const timer = setTimeout(() => setVisible(key), FORM_ERROR_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return useMemo(() => Object.fromEntries(JSON.parse(visible) as [string, string][]), [visible]);
}

function topLevel(field: string): string {
  return field.split('.')[0] ?? field;
}
