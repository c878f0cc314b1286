export { SchemaForm, fieldId, type SchemaFormProps, type ServerFieldErrors } from './SchemaForm.tsx';
export { formUiSchema } from './formUiSchema.ts';
export { formFieldErrors, type FormData } from './precompiledValidator.ts';
export { FORM_ERROR_DEBOUNCE_MS } from './constants.ts';
