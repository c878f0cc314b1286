import type { UiSchema } from '@rjsf/utils';
import type { FieldDescription } from '../generated/types.ts';

/**
 * The form's uiSchema: a widget for each field whose declaration asks for one (relation selects, money, months, image
 * preview for `image-url`, password inputs for `password`, capitals as typed) and the labels of each enum's values, with the manifest's own uiSchema on top.
 */
export function formUiSchema(fields: readonly FieldDescription[], manifestUiSchema: Record<string, unknown>): UiSchema {
  const uiSchema: Record<string, unknown> = {};
  for (const field of fields) {
    const widget = widgetFor(field);
    if (widget) uiSchema[field.name] = widget;
  }
  for (const [key, value] of Object.entries(manifestUiSchema)) {
    const base = uiSchema[key];
    uiSchema[key] = isRecord(base) && isRecord(value) ? { ...base, ...value } : value;
  }
  return uiSchema as UiSchema;
}

/** What a mobile field accepts, said before anything is typed. */
export const MOBILE_HELP = 'Ten digits, such as 98765 43210; +91, spaces and dashes are fine.';

function widgetFor(field: FieldDescription): Record<string, unknown> | null {
  // rjsf's select reads an enum's labels from ui:enumNames, keyed by value.
  if (field.enumLabels) return { 'ui:enumNames': field.enumLabels };
  if (field.relation) return { 'ui:widget': 'relation', 'ui:options': { api: field.relation.api } };
  // By the declared format only, never by the field's name: a field named "password" without it is plain text.
  if (field.format === 'password') return { 'ui:widget': 'password' };
  if (field.format === 'money') return { 'ui:widget': 'money' };
  if (field.format === 'image-url') return { 'ui:widget': 'image' };
  // Month and year selects: a native month input shows dashes in some browsers and is plain text in others.
  if (field.format === 'period') return { 'ui:widget': 'month' };
  if (field.normalise === 'upper') return { 'ui:options': { normalise: 'upper' } };
  if (field.normalise === 'mobile') return { 'ui:options': { normalise: 'mobile' }, 'ui:help': MOBILE_HELP };
  return null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
