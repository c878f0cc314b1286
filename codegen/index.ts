export { buildModel, emitAll, findDrift, writeGenerated, type GeneratedFiles } from './generate.ts';
export { addModule, type AddModuleOptions } from './addModule.ts';
export { formatManifestError, type ManifestError } from './errors.ts';
