import Ajv2020, { type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import manifestSchema from '../manifest/manifest.schema.json' with { type: 'json' };
import type { AreaManifest } from './generated/manifest.ts';

// The manifest schema is ours and fixed: skip checking it against the meta-schema on every run.
export const SHAPE_OPTIONS: Options = { allErrors: true, strict: false, validateSchema: false };

/**
 * An area file's shape against manifest.schema.json. The CLI's bundle (cli/bundle.mjs) replaces this module with
 * the same validator compiled ahead of time, so a run does not compile the manifest schema again.
 */
export const validateShape: ValidateFunction<AreaManifest> = new Ajv2020(SHAPE_OPTIONS).compile<AreaManifest>(
  manifestSchema,
);
