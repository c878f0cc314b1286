import { displayFieldError, fieldErrorText, formats, type ValidationIssue } from '../../validation/index.ts';

/** A client-side check of one field: the text to show under it (with "* "), or null when the value passes. */
export type FieldRule = (value: string, values: Readonly<Record<string, string>>) => string | null;

const issue = (keyword: string, params: Record<string, unknown> = {}, schemaPath = ''): ValidationIssue => ({
  keyword,
  instancePath: '',
  schemaPath,
  params,
});

/** The shared messages of docs/spec/seed-spec.md section 5, without ajv: the auth screens stay small. */
const message = (validationIssue: ValidationIssue, schema: Record<string, unknown> = {}) =>
  displayFieldError(fieldErrorText(validationIssue, schema));

export const required: FieldRule = (value) => (value.trim() === '' ? message(issue('required')) : null);

export const email: FieldRule = (value) =>
  value !== '' && !formats.email(value) ? message(issue('format', { format: 'email' })) : null;

export const password: FieldRule = (value) =>
  value !== '' && !formats.password(value) ? message(issue('format', { format: 'password' })) : null;

/** compareTo: the value must equal another field's, e.g. confirm_password and password. */
export function sameAs(field: string, title: string): FieldRule {
  return (value, values) =>
    value !== '' && value !== values[field]
      ? message(issue('compareTo', {}, '#/compareTo'), { compareTo: field, properties: { [field]: { title } } })
      : null;
}
