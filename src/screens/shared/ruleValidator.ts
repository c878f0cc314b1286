import { formats, type FormatName } from '../../../validation/formats.ts';
import type { ValidationIssue } from '../../../validation/messages.ts';
import type { JsonSchema, PrecompiledValidator } from '../../generated/types.ts';

interface FieldRules {
  type?: 'string' | 'integer' | 'number';
  minimum?: number;
  maxLength?: number;
  format?: FormatName;
  compareTo?: string;
  noWhiteSpace?: boolean;
}

/**
 * A validator for the few forms whose schema the manifest does not hold (profile, change password),
 * checking the schema's own rules and reporting them as ajv issues, so the shared messages word them
 * exactly as for every other form.
 */
export function ruleValidator(schema: JsonSchema): PrecompiledValidator {
  const properties = (schema.properties ?? {}) as Record<string, FieldRules>;
  const required = (schema.required ?? []) as string[];
  const validate: PrecompiledValidator = (data: unknown) => {
    const record = (data ?? {}) as Record<string, unknown>;
    const issues: ValidationIssue[] = [];
    const issue = (keyword: string, field: string, params: Record<string, unknown> = {}, atField = true) =>
      issues.push({ keyword, instancePath: atField ? `/${field}` : '', schemaPath: atField ? `#/properties/${field}/${keyword}` : '#/required', params });
    for (const field of required) if (record[field] === undefined || record[field] === '') issue('required', field, { missingProperty: field }, false);
    for (const [field, rules] of Object.entries(properties)) {
      const value = record[field];
      if (typeof value === 'number') {
        if (rules.type === 'integer' && !Number.isInteger(value)) issue('type', field, { type: 'integer' });
        else if (rules.minimum !== undefined && value < rules.minimum) issue('minimum', field, { limit: rules.minimum });
        continue;
      }
      if (typeof value !== 'string' || value === '') continue;
      if (rules.noWhiteSpace && value.trim() === '') issue('noWhiteSpace', field);
      else if (rules.maxLength !== undefined && [...value].length > rules.maxLength) issue('maxLength', field, { limit: rules.maxLength });
      else if (rules.format && !formats[rules.format](value)) issue('format', field, { format: rules.format });
      else if (rules.compareTo && value !== record[rules.compareTo]) issue('compareTo', field);
    }
    validate.errors = issues.length > 0 ? issues : null;
    return issues.length === 0;
  };
  return validate;
}
