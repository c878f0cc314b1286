import { createAjv } from '../../../../validation/createAjv.ts';
import { keywords } from '../../../../validation/keywords.ts';

type Schema = Record<string, unknown>;
type Components = { components: { schemas: Record<string, Schema>; responses: Record<string, Schema> } };

/** The shared validation keywords, which the document carries as `x-` extensions. */
export const SHARED_KEYWORDS = keywords.map((keyword) => keyword.keyword);

/**
 * The served document's schemas as the server's ajv reads them: `x-noWhiteSpace` back to `noWhiteSpace`, and `$ref`s
 * pointing into one ajv schema holding the document's components, so any part of the document compiles.
 */
export function documentAjv(document: object) {
  const { components } = document as Components;
  const ajv = createAjv({ coerceTypes: false, removeAdditional: false, useDefaults: false });
  const rewrite = (value: unknown) => {
    let text = JSON.stringify(value).replaceAll('"#/components/schemas/', '"openapi#/$defs/');
    for (const keyword of SHARED_KEYWORDS) text = text.replaceAll(`"x-${keyword}":`, `"${keyword}":`);
    return JSON.parse(text) as Schema;
  };
  ajv.addSchema({ $id: 'openapi', $defs: rewrite(components.schemas) });
  return { ajv, rewrite };
}

/** A schema, or the component it refers to. */
export function resolvedSchema(document: object, schema: Schema): Schema {
  const name = typeof schema.$ref === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(schema.$ref)?.[1] : undefined;
  return name ? (document as Components).components.schemas[name]! : schema;
}

/** An operation's answer for a status, or the component it refers to. */
export function resolvedAnswer(document: object, answer: Schema | undefined): Schema | undefined {
  const name = typeof answer?.$ref === 'string' ? answer.$ref.replace('#/components/responses/', '') : undefined;
  return name ? (document as Components).components.responses[name] : answer;
}
