import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormData, ServerFieldErrors } from '../../forms/index.ts';
import { isApiError } from '../../http/index.ts';

/** A form's submission as SchemaForm takes it (`<SchemaForm {...submission} />`). */
export interface UseFormSubmissionResult {
  /** Saves the data; a second submit while a save is under way is ignored, so a record is never sent twice. */
  onSubmit: (data: FormData) => void;
  saving: boolean;
  /** The server's field errors of the last failed save (FORM-12), else null. */
  serverErrors: ServerFieldErrors | null;
}

/**
 * Saves a form: while saving the form is disabled, a rejection keeps what was typed and puts the
 * server's field errors on their fields (the http client has already shown the "Error" toast).
 */
export function useFormSubmission<Result>(
  save: (data: FormData) => Promise<Result>,
  onSaved: (result: Result, data: FormData) => void,
  onFailed?: (error: unknown) => void,
): UseFormSubmissionResult {
  const [serverErrors, setServerErrors] = useState<ServerFieldErrors | null>(null);
  const mutation = useMutation({
    mutationFn: save,
    onSuccess: onSaved,
    onError: (error, data) => {
      if (isApiError(error) && Object.keys(error.fieldErrors).length > 0)
        setServerErrors({ fields: error.fieldErrors, submitted: data });
      onFailed?.(error);
    },
  });
  return {
    onSubmit: (data) => {
      if (mutation.isPending) return;
      setServerErrors(null);
      mutation.mutate(data);
    },
    saving: mutation.isPending,
    serverErrors,
  };
}
