/** How every failed call rejects, after its "Error" toast was shown (ERR-01). */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status; 0 when no answer arrived. */
    readonly status: number,
    message: string,
    /** Server validation errors by field name, without the "* " prefix (FORM-12). */
    readonly fieldErrors: Record<string, string> = {},
    /** A 429's `Retry-After`, in seconds: how long the server asks the caller to wait; null when it did not say. */
    readonly retryAfterSeconds: number | null = null,
    /** A refusal the console acts on by name (`two_factor_enrolment_required`); null when the answer named none. */
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * Failure statuses a caller shows the user itself, so no "Error" toast repeats them: a list, or "all" for a fetch
 * started ahead of the screen that will say what went wrong.
 */
export type ShownByCaller = readonly number[] | 'all';

export function isShownByCaller(shownByCaller: ShownByCaller | undefined, status: number): boolean {
  return shownByCaller === 'all' || (shownByCaller ?? []).includes(status);
}
