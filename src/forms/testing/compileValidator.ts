import { createAjv } from '../../../validation/createAjv.ts';
import type { JsonSchema, PrecompiledValidator } from '../../generated/types.ts';

/** Tests only: the validator codegen would precompile for this schema, compiled on the spot. */
export function compileValidator(schema: JsonSchema): PrecompiledValidator {
  return createAjv().compile(schema) as PrecompiledValidator;
}
