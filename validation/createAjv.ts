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
    ...options,
  });
  for (const [name, validate] of Object.entries(formats)) ajv.addFormat(name, validate);
  for (const keyword of keywords) ajv.addKeyword(keyword);
  return ajv;
}
