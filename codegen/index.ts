export {
  buildModel,
  emitAll,
  findDrift,
  writeGenerated,
  GENERATED_DIRS,
  type Drift,
  type GeneratedFiles,
  type WriteReport,
} from './generate.ts';
export { addModule, type AddModuleOptions } from './addModule.ts';
export { formatManifestError, type ManifestError, type ManifestErrorKind } from './errors.ts';
export type { ProjectModel } from '../contract/description.ts';
