import Ajv2020, { type Options } from 'ajv/dist/2020.js';
import { formats } from './formats.ts';
import { keywords } from './keywords.ts';

/**
 * The one ajv set-up shared by the codegen (precompiled browser validators), the server's request
 * validation and the CLI's manifest checks: same formats, same keywords, so the same input gets the
 * same verdict everywhere.
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    // Amounts to the paisa are `multipleOf: 0.01`; without a precision, 17999.1 / 0.01 is 1799909.9999999998 in
    // floating point and a valid amount would be refused.
    multipleOfPrecision: 9,
    ...options,
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  // Without schema validation (the codegen's standalone compiler, given only schemas its validate stage has checked),
  // the keywords' own meta-schemas are not compiled either: that would compile the draft's meta-schema, ~50 ms a run.
  const checked = options.validateSchema !== false;
  for (const { metaSchema, ...keyword } of keywords)
    ajv.addKeyword(checked && metaSchema ? { ...keyword, metaSchema } : keyword);
  return ajv;
}
