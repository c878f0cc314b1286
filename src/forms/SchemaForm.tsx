import Form from '@rjsf/core';
import { toErrorSchema, type ErrorSchema, type RJSFSchema, type UiSchema } from '@rjsf/utils';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { displayFieldError } from '../../validation/messages.ts';
import type { JsonSchema, PrecompiledValidator } from '../generated/types.ts';
import { formFieldErrors, precompiledValidator, toValidationErrors, type FormData } from './precompiledValidator.ts';
import { templates, widgets } from './theme.ts';
import { useVisibleErrors } from './useVisibleErrors.ts';
import './forms.css';

/** What the server said about a submitted form: its field errors and the data they were about. */
export interface ServerFieldErrors {
  fields: Record<string, string>;
  submitted: FormData;
}

export interface SchemaFormProps {
  schema: JsonSchema;
  /** The precompiled validator of `schema` from codegen. */
  validate: PrecompiledValidator;
  uiSchema?: UiSchema;
  formData: FormData;
  onChange: (formData: FormData) => void;
  /** Called with valid data only. */
  onSubmit: (formData: FormData) => void;
  serverErrors?: ServerFieldErrors | null;
  saving?: boolean;
  submitLabel: string;
  /** The accessible name of the form. */
  label: string;
  /** Further buttons beside submit (cancel, back). */
  actions?: ReactNode;
  /** Content inside the form after the schema's fields, e.g. a screen's own editor. */
  children?: ReactNode;
  /** A message about the last save shown just above the buttons, e.g. that the record changed meanwhile. */
  notice?: ReactNode;
  /** The submit button's text while saving; "Saving…" unless told otherwise. */
  busyLabel?: string;
  /**
   * Errors of a field the form does not show, by field, shown on the field that stands for it (a file's size and the
   * server's word on the file itself, shown on the file's field).
   */
  errorsShownOn?: Readonly<Record<string, string>>;
}

const ID_SEPARATOR = '-';
const ID_PREFIX = 'field';

/**
 * A form from a JSON Schema (@rjsf/core), validated in the browser by the precompiled validator with the
 * shared messages; errors show after touch or submit, debounced (FORM-01, FORM-02), and the server's field
 * errors show on their fields until the field is changed (FORM-12).
 */
export function SchemaForm({
  schema,
  validate,
  uiSchema,
  formData,
  onChange,
  onSubmit,
  serverErrors,
  saving = false,
  submitLabel,
  label,
  actions,
  children,
  notice,
  busyLabel = 'Saving…',
  errorsShownOn = {},
}: SchemaFormProps) {
  const validator = useMemo(() => precompiledValidator(validate, schema), [validate, schema]);
  const [touched, setTouched] = useState<ReadonlySet<string>>(() => new Set());
  const [submitted, setSubmitted] = useState(false);

  const shownOn = (errors: Record<string, string>) => movedErrors(errors, errorsShownOn);
  const errors = useMemo(
    () => movedErrors(formFieldErrors(validate, schema, formData), errorsShownOn),
    [validate, schema, formData, errorsShownOn],
  );
  const visible = useVisibleErrors(errors, { touched, submitted });
  // Moved first, so that an error about the file goes once the file's field changes.
  const fromServer = useMemo(
    () =>
      currentServerErrors(
        serverErrors && { ...serverErrors, fields: movedErrors(serverErrors.fields, errorsShownOn) },
        formData,
      ),
    [serverErrors, formData, errorsShownOn],
  );
  const properties = Object.keys((schema.properties as Record<string, unknown> | undefined) ?? {});
  const onField = (field: string) => properties.includes(field.split('.')[0] ?? field);
  const formLevel = Object.entries(fromServer).filter(([field]) => !onField(field));
  const shown = Object.fromEntries(Object.entries({ ...visible, ...fromServer }).filter(([field]) => onField(field)));
  const extraErrors = toErrorSchema<FormData>(toValidationErrors(shown)) as ErrorSchema<FormData>;

  // A save the server refused over a field brings that field into view, focused, however far it is scrolled away.
  useEffect(() => {
    const first = Object.keys(fromServer).find(onField);
    if (first) document.getElementById(fieldId(first))?.focus();
    // Only when the server answers: not when the form's fields or their mapping change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [serverErrors]);

  const handleSubmit = (data: FormData) => {
    setSubmitted(true);
    const invalid = Object.keys(shownOn(formFieldErrors(validate, schema, data)));
    if (invalid.length === 0) {
      onSubmit(data);
      return;
    }
    document.getElementById(fieldId(invalid[0] ?? ''))?.focus();
  };

  return (
    <Form<FormData>
      className="schema-form"
      aria-label={label}
      schema={schema as RJSFSchema}
      uiSchema={uiSchema}
      formData={formData}
      validator={validator}
      templates={templates}
      widgets={widgets}
      idPrefix={ID_PREFIX}
      idSeparator={ID_SEPARATOR}
      noValidate
      noHtml5Validate
      showErrorList={false}
      extraErrors={extraErrors}
      disabled={saving}
      onChange={(event) => onChange(event.formData ?? {})}
      onBlur={(id) => setTouched((previous) => new Set(previous).add(fieldOfId(id)))}
      onSubmit={(event) => handleSubmit(event.formData ?? {})}
    >
      {children}
      {formLevel.length > 0 && (
        <div role="alert" className="form-alert">
          {formLevel.map(([field, text]) => (
            <p key={field}>{text}</p>
          ))}
        </div>
      )}
      {notice}
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={saving} aria-busy={saving || undefined}>
          {saving ? busyLabel : submitLabel}
        </button>
        {actions}
      </div>
    </Form>
  );
}

/** The DOM id rjsf gives a field's input. */
export function fieldId(field: string): string {
  return [ID_PREFIX, ...field.split('.')].join(ID_SEPARATOR);
}

function fieldOfId(id: string): string {
  return id.split(ID_SEPARATOR)[1] ?? id;
}

/** The errors with those of a field shown on another moved there (the first error of that field stays). */
function movedErrors(
  errors: Record<string, string>,
  shownOn: Readonly<Record<string, string>>,
): Record<string, string> {
  const moved: Record<string, string> = {};
  for (const [field, text] of Object.entries(errors)) {
    const target = shownOn[field.split('.')[0] ?? field] ?? field;
    moved[target] ??= text;
  }
  return moved;
}

/** Server errors still about what is in the form: a field's error goes once its value changes. */
function currentServerErrors(
  serverErrors: ServerFieldErrors | null | undefined,
  formData: FormData,
): Record<string, string> {
  if (!serverErrors) return {};
  const current: Record<string, string> = {};
  for (const [field, text] of Object.entries(serverErrors.fields)) {
    const name = field.split('.')[0] ?? field;
    if (JSON.stringify(formData[name]) === JSON.stringify(serverErrors.submitted[name]))
      current[field] = displayFieldError(text);
  }
  return current;
}
