import { _ } from 'ajv';
import type Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { createAjv } from '../../validation/createAjv.ts';
import type { AreaModel, JsonSchema, ResourceModel } from '../../contract/description.ts';
import { pascalCase } from '../resolve.ts';
import { tsHeader } from './header.ts';

const RUNTIME_HELPERS = new Set(['ucs2length']);

/**
 * The schema without its fields' `enumLabels`, `valueUnit`, `currency` and money format, which judge nothing (ajv would
 * copy them into the browser's validator code, beside the description that already carries them), and `normalise`,
 * which changes the value: the form upper-cases codes as typed (the description carries it), and a standalone
 * validator cannot hold it.
 */
function withoutLabels(schema: JsonSchema): JsonSchema {
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (!properties) return schema;
  return {
    ...schema,
    properties: Object.fromEntries(
      Object.entries(properties).map(
        ([
          name,
          { enumLabels: _labels, valueUnit: _unit, currency: _currency, normalise: _normalise, ...property },
        ]) => {
          if (property.format === 'money') delete property.format;
          return [name, property];
        },
      ),
    ),
  };
}

/** Does the area have anything to validate (an entity or an action form)? */
export function hasValidators(area: AreaModel): boolean {
  return area.resources.some((resource) => resource.entity || Object.keys(resource.forms).length > 0);
}

/** The export name of an action form's validator, e.g. SubscribersAddTopUpForm. */
export function formValidatorName(resource: ResourceModel, action: string): string {
  return `${resource.typeName}${pascalCase(action)}Form`;
}

/** The ajv instance of one area's validators (an instance per area keeps their generated names the area's own). */
export function createStandaloneAjv(): Ajv2020 {
  // optimize: false skips ajv's code-size passes, which dominate generation time on large manifests.
  // validateSchema: false because the validate stage has already compiled every entity schema strictly.
  // messages: false because the console words an error itself from its keyword and params (validation/messages.ts),
  // so ajv's English text would travel in every area chunk unread.
  // process: these validators are only printed (from their `source`), never run, so ajv hands the Function constructor
  // a stub in place of their code: V8 parsing code that is never called was some 8% of a `generate`.
  return createAjv({
    validateSchema: false,
    messages: false,
    code: { source: true, esm: true, lines: true, optimize: false, formats: _`formats`, process: printedOnly },
  });
}

function printedOnly(): string {
  return 'return function validate() {}';
}

/**
 * src/generated/validators/<area>.ts: ajv standalone code for each entity's create and update schema,
 * so the browser validates with the shared rules without shipping the ajv compiler or evaluating code.
 */
export function emitValidators(area: AreaModel, ajv: Ajv2020 = createStandaloneAjv()): string {
  const exports: Record<string, string> = {};
  const aliases: string[] = [];
  for (const resource of area.resources) {
    if (!resource.entity) continue;
    const createId = `${area.path}/${resource.key}/create`;
    ajv.addSchema({ ...withoutLabels(resource.entity.createSchema), $id: createId });
    exports[`${resource.typeName}Create`] = createId;
    // Most entities accept the same fields on update; only write-only fields (passwords) make them differ.
    // The same schema exported twice would make ajv emit its function twice, so alias it instead.
    if (resource.entity.updateSchema === resource.entity.createSchema) {
      aliases.push(`export const ${resource.typeName}Update = ${resource.typeName}Create;`);
    } else {
      const updateId = `${area.path}/${resource.key}/update`;
      ajv.addSchema({ ...withoutLabels(resource.entity.updateSchema), $id: updateId });
      exports[`${resource.typeName}Update`] = updateId;
    }
  }
  for (const resource of area.resources) {
    for (const [action, form] of Object.entries(resource.forms)) {
      const id = `${area.path}/${resource.key}/${action}`;
      ajv.addSchema({ ...withoutLabels(form.schema), $id: id });
      exports[formValidatorName(resource, action)] = id;
    }
  }
  const code = standaloneCode(ajv, exports);
  const helpers = new Set<string>();
  // ajv's standalone output require()s its CommonJS run-time helpers even in ESM mode; use ours (validation/runtime.ts).
  const esm = code
    .replace(/require\("ajv\/dist\/runtime\/([a-z0-9]+)"\)\.default/g, (_match, helper: string) => {
      if (!RUNTIME_HELPERS.has(helper))
        throw new Error(
          `the validators of ${area.file} need ajv's run-time helper "${helper}", which validation/runtime.ts lacks`,
        );
      helpers.add(helper);
      return helper;
    })
    .replace(/^"use strict";/, '');
  if (esm.includes('require(')) throw new Error(`unexpected require() in the validators of ${area.file}`);
  const importLines = helpers.size
    ? `import { ${[...helpers].sort().join(', ')} } from '../../../validation/runtime.ts';`
    : '';
  return `${tsHeader()}// @ts-nocheck: ajv standalone output
/* eslint-disable */
import { formats } from '../../../validation/formats.ts';
${importLines}
${esm.trim()}
${aliases.join('\n')}
`;
}
