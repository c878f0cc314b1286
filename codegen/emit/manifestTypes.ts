import { compile } from 'json-schema-to-typescript';
import manifestSchema from '../../manifest/manifest.schema.json' with { type: 'json' };
import { tsHeader } from './header.ts';
import { indentTs } from './indentTs.ts';

/**
 * codegen/generated/manifest.ts: the authoring type of a manifest file, from manifest.schema.json.
 * A function of the schema alone, so the CLI's bundle holds its text, written when the bundle is built (cli/bundle.mjs).
 */
export async function emitManifestTypes(): Promise<string> {
  const types = await compile(manifestSchema as never, 'AreaManifest', {
    bannerComment: '',
    additionalProperties: false,
    format: false,
    unreachableDefinitions: true,
  });
  return `${tsHeader()}\n${indentTs(types.trim())}\n`;
}
