export { SchemaForm, type SchemaFormProps, type ServerFieldErrors } from './SchemaForm.tsx';
export { formUiSchema } from './formUiSchema.ts';
export type { FormData } from './precompiledValidator.ts';
