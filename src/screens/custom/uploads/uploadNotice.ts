import { isApiError } from '../../../http/index.ts';

/** What the form says beside its buttons after a try: why it came to nothing, or that it was cancelled. */
export interface FormNotice {
  kind: 'failed' | 'cancelled';
  text: string;
}

/** Why an upload came to nothing, said to its uploader: the fields the server named are marked on the form too. */
export function failureText(error: unknown): string {
  if (!isApiError(error))
    return `Nothing was uploaded: ${error instanceof Error ? error.message : 'an unexpected error'}.`;
  if (Object.keys(error.fieldErrors).length > 0)
    return 'Nothing was uploaded: correct what is marked above, then upload again. Your other choices are kept.';
  return `Nothing was uploaded: ${error.message}`;
}
