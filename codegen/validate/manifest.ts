import type Ajv2020 from 'ajv/dist/2020.js';
import { createAjv } from '../../validation/createAjv.ts';
import { manifestError, pointerOf, type ManifestError } from '../errors.ts';
import type { Resource } from '../generated/manifest.ts';
import type { LoadedArea } from '../load.ts';
import { validateShape } from '../manifestShape.ts';
import { tableName } from '../sqlNames.ts';
import { ROUTE_SUFFIX } from '../vocabulary.ts';
import { resourceChecks } from './resourceChecks.ts';
import { shapeErrors } from './shapeErrors.ts';
import { moduleContractErrors } from './moduleContracts.ts';

/** Every problem of the manifest at once: shape against manifest.schema.json, then cross-file rules. */
export function validateManifest(areas: readonly LoadedArea[]): ManifestError[] {
  const errors: ManifestError[] = [];
  const wellShaped: LoadedArea[] = [];
  for (const area of areas) {
    if (validateShape(area.document)) wellShaped.push(area);
    else errors.push(...shapeErrors(area.file, area.document, validateShape.errors ?? []));
  }
  // Cross-file rules only make sense on well-shaped files; a misshapen one has been reported above.
  // The schemas are compiled here only to learn whether ajv accepts them; its code-size pass would be wasted work
  // (measured: 90 ms of the real manifest's ~1 s generate).
  errors.push(...crossChecks(wellShaped, createAjv({ code: { optimize: false } })));
  errors.push(...moduleContractErrors(wellShaped));
  return errors;
}

function crossChecks(areas: readonly LoadedArea[], ajv: Ajv2020): ManifestError[] {
  const errors: ManifestError[] = [];
  const moduleKeys = new Map<string, string>();
  const areaPaths = new Map<string, string>();
  const routePaths = new Map<string, string>();
  const tables = new Map<string, string>();
  const apiPaths = new Map<string, string>();
  const resourcesByKey = new Map<string, Resource>();
  const sidebarGroups = new Map<string, { group: string; place: string }>();
  const claim = (seen: Map<string, string>, value: string, place: string, onClash: (first: string) => void) => {
    const first = seen.get(value);
    if (first) onClash(first);
    else seen.set(value, place);
  };

  for (const { file, document: area } of areas) {
    claim(moduleKeys, area.key, `${file}:/key`, (first) =>
      errors.push(
        manifestError('DuplicateAreaKey', file, '/key', `module key "${area.key}" is already used at ${first}`),
      ),
    );
    claim(areaPaths, area.path, `${file}:/path`, (first) =>
      errors.push(
        manifestError('DuplicateAreaPath', file, '/path', `area path "${area.path}" is already used at ${first}`),
      ),
    );
    if (area.sidebar && area.sidebar.link !== `/${area.path}` && !area.sidebar.link.startsWith(`/${area.path}/`)) {
      errors.push(
        manifestError(
          'SidebarLinkOutsideArea',
          file,
          '/sidebar/link',
          `sidebar link "${area.sidebar.link}" is outside the area path "/${area.path}"`,
        ),
      );
    }
    const group = area.sidebar?.group;
    if (group !== undefined) {
      // A heading written two ways would show as two headings: one spelling per heading.
      const key = group.trim().replace(/\s+/g, ' ').toLowerCase();
      const first = sidebarGroups.get(key);
      if (!first) sidebarGroups.set(key, { group, place: `${file}:/sidebar/group` });
      else if (first.group !== group) {
        errors.push(
          manifestError(
            'InconsistentSidebarGroup',
            file,
            '/sidebar/group',
            `sidebar group "${group}" differs only in case or spacing from "${first.group}" at ${first.place}; write a heading one way`,
          ),
        );
      }
    }
    area.resources.forEach((resource, index) => {
      const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
      resourcesByKey.set(resource.key, resource);
      claim(moduleKeys, resource.key, `${file}:${at('key')}`, (first) =>
        errors.push(
          manifestError(
            'DuplicateModuleKey',
            file,
            at('key'),
            `module key "${resource.key}" is already used at ${first}`,
          ),
        ),
      );
      for (const action of resource.actions) {
        const suffix = ROUTE_SUFFIX[action];
        if (suffix === undefined) continue;
        const path = `/${area.path}/${resource.path}${suffix}`;
        claim(routePaths, path, `${file}:${at('path')}`, (first) =>
          errors.push(
            manifestError('DuplicateRoutePath', file, at('path'), `route "${path}" is already produced at ${first}`),
          ),
        );
      }
      const api = resource.api ?? resource.path;
      claim(apiPaths, api, `${file}:${at('api')}`, (first) =>
        errors.push(
          manifestError(
            'DuplicateApiPath',
            file,
            at(resource.api ? 'api' : 'path'),
            `API path "${api}" is already used at ${first}; set a distinct "api"`,
          ),
        ),
      );
      if (resource.entity) {
        const table = resource.entity.table ?? tableName(resource.key);
        claim(tables, table, `${file}:${at('entity')}`, (first) =>
          errors.push(
            manifestError(
              'DuplicateTable',
              file,
              at('entity', 'table'),
              `table "${table}" is already used at ${first}`,
            ),
          ),
        );
      }
    });
  }

  for (const { file, document: area } of areas) {
    area.resources.forEach((resource, index) =>
      errors.push(...resourceChecks({ file, index, resource, resourcesByKey, ajv })),
    );
  }
  return errors;
}
