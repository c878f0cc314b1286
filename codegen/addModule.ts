import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { manifestError, type ManifestError } from './errors.ts';
import type { Action, AreaManifest, Resource } from './generated/manifest.ts';
import { loadManifest, type LoadedArea } from './load.ts';
import { validateManifest } from './validate/manifest.ts';
import { humanise } from '../contract/humanise.ts';

export interface AddModuleOptions {
  /** Area path, e.g. warehouse-management. A new area file is made when none has this path. */
  area: string;
  /** For a new area: its permission key and label. */
  areaKey?: string;
  areaLabel?: string;
  /** The resource. */
  key: string;
  label: string;
  path: string;
  actions: Action[];
  /** name:type[:required][:unique], type one of FIELD_TYPES. */
  fields: string[];
  /** Composite unique keys, each a comma-separated list of 2+ field names unique together, e.g. "warehouse_id,code". */
  uniqueTogether?: string[];
  /** Each record's history with restore, and delete into a trash (the manifest's `history` and `softDelete`); default true. */
  history?: boolean;
  softDelete?: boolean;
}

const FIELD_TYPES: Record<string, Record<string, unknown>> = {
  string: { type: 'string', maxLength: 200 },
  text: { type: 'string', maxLength: 4000 },
  integer: { type: 'integer' },
  number: { type: 'number' },
  boolean: { type: 'boolean' },
  date: { type: 'string', format: 'date' },
  email: { type: 'string', format: 'email', maxLength: 254 },
  mobile: { type: 'string', format: 'mobile' },
  pincode: { type: 'string', format: 'pincode' },
  uri: { type: 'string', format: 'uri', maxLength: 2000 },
};

export const ADD_MODULE_FIELD_TYPES = Object.keys(FIELD_TYPES);

export type AddModuleResult =
  { file: string; text: string; errors: [] } | { file: null; text: null; errors: ManifestError[] };

/**
 * Adds a resource (and its area when new) to the manifest in memory and validates the whole manifest.
 * Returns the file to write; the caller writes it only when there are no errors (all-or-nothing).
 */
export async function addModule(manifestDir: string, options: AddModuleOptions): Promise<AddModuleResult> {
  const loaded = await loadManifest(manifestDir);
  if (loaded.errors.length > 0) return { file: null, text: null, errors: loaded.errors };
  const fieldErrors: ManifestError[] = [];
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  const unique: Array<string | string[]> = [];
  for (const spec of options.fields) {
    const [name = '', type = 'string', ...flags] = spec.split(':');
    const base = FIELD_TYPES[type];
    if (!base) {
      fieldErrors.push(
        manifestError(
          'SchemaViolation',
          '--field',
          '',
          `"${spec}": unknown field type "${type}"; expected one of ${ADD_MODULE_FIELD_TYPES.join(', ')}`,
        ),
      );
      continue;
    }
    const unknownFlag = flags.find((flag) => flag !== 'required' && flag !== 'unique');
    if (unknownFlag)
      fieldErrors.push(
        manifestError(
          'SchemaViolation',
          '--field',
          '',
          `"${spec}": unknown flag "${unknownFlag}"; expected required or unique`,
        ),
      );
    properties[name] = {
      title: humanise(name),
      ...base,
      ...(flags.includes('required') && base.type === 'string' && !base.format ? { noWhiteSpace: true } : {}),
    };
    if (flags.includes('required')) required.push(name);
    if (flags.includes('unique')) unique.push(name);
  }
  if (fieldErrors.length > 0) return { file: null, text: null, errors: fieldErrors };
  // Field names and key shape are checked with the whole manifest below, like a hand-written key.
  for (const key of options.uniqueTogether ?? []) unique.push(key.split(',').map((name) => name.trim()));

  const names = Object.keys(properties);
  const textFields = names.filter((name) => properties[name]?.type === 'string' && !properties[name]?.format);
  const resource: Resource = {
    key: options.key,
    label: options.label,
    path: options.path,
    actions: options.actions as Resource['actions'],
    entity: {
      schema: { type: 'object', additionalProperties: false, required, properties },
      ...(unique.length ? { unique: unique as NonNullable<Resource['entity']>['unique'] } : {}),
      // Written out, so the author sees both choices in the file.
      history: options.history ?? true,
      softDelete: options.softDelete ?? true,
    },
    list: {
      columns: [...names.slice(0, 5), ...(options.actions.includes('ACTIVE_INACTIVE') ? ['is_active'] : [])] as [
        string,
        ...string[],
      ],
      search: textFields.slice(0, 3),
      sort: { field: names[0] ?? 'id', direction: 'asc' },
      pageSize: 20,
    },
    uiSchema: { 'ui:order': [...names, '*'] },
  };

  const existing = loaded.areas.find((area) => area.document.path === options.area);
  let updated: LoadedArea;
  if (existing) {
    updated = {
      file: existing.file,
      document: { ...existing.document, resources: [...existing.document.resources, resource] },
    };
  } else {
    const order = Math.max(0, ...loaded.areas.map((area) => (area.document.order < 90 ? area.document.order : 0))) + 1;
    const document: AreaManifest = {
      $schema: './manifest.schema.json',
      key: options.areaKey ?? `${options.area.replace(/-/g, '_').toUpperCase()}`,
      label: options.areaLabel ?? humanise(options.area.replace(/-/g, '_')),
      path: options.area,
      order,
      guard: 'authenticated',
      sidebar: { link: `/${options.area}` },
      resources: [resource],
    };
    updated = { file: `${options.area}.json`, document };
  }
  const areas = [...loaded.areas.filter((area) => area.file !== updated.file), updated];
  const errors = validateManifest(areas);
  if (errors.length > 0) return { file: null, text: null, errors };
  // Keep the author's formatting style: two-space JSON with a trailing newline, as the files are written.
  const previous = existing ? await readFile(join(manifestDir, existing.file), 'utf8') : '';
  const indent = /^(\s+)"/m.exec(previous)?.[1] ?? '  ';
  return { file: updated.file, text: `${JSON.stringify(updated.document, null, indent)}\n`, errors: [] };
}
