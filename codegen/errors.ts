/** A manifest problem with its place: the file and the JSON pointer inside it. */
export type ManifestErrorKind =
  | 'UnreadableManifest'
  | 'InvalidJson'
  | 'UnknownProperty'
  | 'UnknownAction'
  | 'UnknownScreen'
  | 'SchemaViolation'
  | 'DuplicateAreaKey'
  | 'DuplicateAreaPath'
  | 'DuplicateModuleKey'
  | 'DuplicateRoutePath'
  | 'DuplicateApiPath'
  | 'SidebarLinkOutsideArea'
  | 'UnknownIcon'
  | 'InconsistentSidebarGroup'
  | 'InvalidEntitySchema'
  | 'UnknownField'
  | 'InvalidUniqueKey'
  | 'DuplicateUniqueKey'
  | 'UnknownResource'
  | 'MissingScreen'
  | 'DuplicateTable'
  | 'ImportWithoutKey'
  | 'ModuleContractViolation';

export interface ManifestError {
  kind: ManifestErrorKind;
  /** Path of the manifest file, as given to the loader. */
  file: string;
  /** RFC 6901 JSON pointer into the file ('' is the whole document). */
  pointer: string;
  message: string;
}

export function manifestError(kind: ManifestErrorKind, file: string, pointer: string, message: string): ManifestError {
  return { kind, file, pointer, message };
}

/** `file:/json/pointer: message`, the form every command prints. */
export function formatManifestError(error: ManifestError): string {
  return `${error.file}:${error.pointer || '/'}: ${error.message}`;
}

export function pointerOf(...segments: (string | number)[]): string {
  return segments.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * The errors one check collects, and how it adds one: its kind, its place (the segments `pointer` makes a JSON pointer
 * of), its message.
 */
export function errorsAt(file: string, pointer: (...segments: (string | number)[]) => string) {
  const errors: ManifestError[] = [];
  const add = (kind: ManifestErrorKind, at: (string | number)[], message: string) => {
    errors.push(manifestError(kind, file, pointer(...at), message));
  };
  return { errors, add };
}
