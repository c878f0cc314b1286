import { GENERIC_ERROR_MESSAGE, NO_INTERNET_MESSAGE } from '../config/constants.ts';

interface ErrorBody {
  message?: unknown;
  errors?: unknown;
  code?: unknown;
}

/** A body as an object: itself, or a string that parses to one (ERR-06); anything else is unparsable. */
export function parseErrorBody(body: unknown): ErrorBody | null {
  if (typeof body === 'string') {
    try {
      return parseErrorBody(JSON.parse(body));
    } catch {
      return null;
    }
  }
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as ErrorBody) : null;
}

/** The error catalogue of docs/spec/seed-spec.md section 8 (ERR-03..06): the text of the "Error" toast. */
export function errorMessage(status: number, body: unknown, online: boolean): string {
  if (status === 0 && !online) return NO_INTERNET_MESSAGE;
  const parsed = parseErrorBody(body);
  if (status !== 0 && typeof parsed?.message === 'string' && parsed.message.trim()) return parsed.message;
  return GENERIC_ERROR_MESSAGE;
}

/** Field errors of a 400 answer (`errors` keyed by field name). */
export function errorFields(body: unknown): Record<string, string> {
  const errors = parseErrorBody(body)?.errors;
  if (errors === null || typeof errors !== 'object') return {};
  return Object.fromEntries(
    Object.entries(errors).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/** The name of a refusal the console acts on (`code`), or null. */
export function errorCode(body: unknown): string | null {
  const code = parseErrorBody(body)?.code;
  return typeof code === 'string' ? code : null;
}
