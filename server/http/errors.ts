/** An answer other than 2xx, with the body shape of docs/api.md: `{ message, errors? }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: Record<string, string>,
    readonly headers: Record<string, string> = {},
    /** A refusal the console acts on by name, not by its words (`two_factor_enrolment_required`). */
    readonly code?: string,
  ) {
    super(message);
  }
}

/** What a 400 with field errors says before its answer names the fields (`errorAnswer` in errorHandler.ts). */
export const FIELD_ERRORS = 'The request has field errors.';

export function validationError(errors: Record<string, string>): HttpError {
  return new HttpError(400, FIELD_ERRORS, errors);
}

export function notFound(what = 'Record'): HttpError {
  return new HttpError(404, `${what} not found.`);
}

export function unauthorized(message = 'Please log in again.'): HttpError {
  return new HttpError(401, message);
}

export function forbidden(module: string, action: string): HttpError {
  return new HttpError(403, `You do not have permission to ${action} in ${module}.`);
}

export function conflict(message: string): HttpError {
  return new HttpError(409, message);
}

export function tooManyRequests(retryAfterSeconds: number, why = 'Too many attempts.'): HttpError {
  const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
  return new HttpError(429, `${why} Try again in ${seconds} second(s).`, undefined, { 'retry-after': String(seconds) });
}
