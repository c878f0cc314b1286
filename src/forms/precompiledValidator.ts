import {
  createErrorHandler,
  toErrorSchema,
  unwrapErrorHandler,
  validationDataMerge,
  type CustomValidator,
  type ErrorTransformer,
  type RJSFSchema,
  type RJSFValidationError,
  type UiSchema,
  type ValidationData,
  type ValidatorType,
} from '@rjsf/utils';
import { displayFieldError, fieldErrors, type ValidationIssue } from '../../validation/messages.ts';
import type { JsonSchema, PrecompiledValidator } from '../generated/types.ts';
import { matchesSchema } from './matchesSchema.ts';

export type FormData = Record<string, unknown>;

/** Runs a precompiled validator and returns its issues (none when the data is valid). */
export function issuesOf(validate: PrecompiledValidator, data: unknown): ValidationIssue[] {
  return validate(data) ? [] : (validate.errors ?? []);
}

/** `{ field: "* message" }` for the data, through the shared messages (docs/spec/seed-spec.md section 5). */
export function formFieldErrors(
  validate: PrecompiledValidator,
  rootSchema: JsonSchema,
  data: unknown,
): Record<string, string> {
  const errors = fieldErrors(issuesOf(validate, data), rootSchema, data);
  return Object.fromEntries(Object.entries(errors).map(([field, text]) => [field, displayFieldError(text)]));
}

/** `{ field: "* text" }` as rjsf's list of errors, one per field. */
export function toValidationErrors(errors: Record<string, string>): RJSFValidationError[] {
  return Object.entries(errors).map(([field, message]) => ({
    property: field === '_' ? '' : `.${field}`,
    message,
    stack: `${field}: ${message}`,
  }));
}

/**
 * An rjsf validator around one precompiled (ajv standalone) validator from codegen: the browser gets the
 * same verdicts and messages as the server without the ajv compiler (no eval under the console's CSP).
 * rjsf also asks `isValid` about subschemas while resolving conditionals; those get a structural check.
 */
export function precompiledValidator(validate: PrecompiledValidator, rootSchema: JsonSchema): ValidatorType<FormData> {
  return {
    validateFormData(
      formData: FormData | undefined,
      _schema: RJSFSchema,
      customValidate?: CustomValidator<FormData>,
      transformErrors?: ErrorTransformer<FormData>,
      uiSchema?: UiSchema<FormData>,
    ): ValidationData<FormData> {
      const data = formData ?? {};
      let errors = toValidationErrors(formFieldErrors(validate, rootSchema, data));
      if (transformErrors) errors = transformErrors(errors, uiSchema);
      const result = { errors, errorSchema: toErrorSchema<FormData>(errors) };
      if (!customValidate) return result;
      const handler = customValidate(data, createErrorHandler<FormData>(data), uiSchema, result.errorSchema);
      return validationDataMerge(result, unwrapErrorHandler(handler));
    },
    isValid(schema: RJSFSchema, formData: FormData | undefined, schemaRoot: RJSFSchema): boolean {
      if (schema === rootSchema) return validate(formData);
      return matchesSchema(schema, formData, schemaRoot);
    },
    rawValidation<Result>(schema: RJSFSchema, formData?: FormData) {
      if (schema !== rootSchema) return { errors: [] as Result[] };
      return { errors: issuesOf(validate, formData) as Result[] };
    },
  };
}
