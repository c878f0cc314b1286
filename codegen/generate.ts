import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { emitAreaDescription, emitAreaIndex, emitAreaModule } from './emit/areaModule.ts';
import { emitEntities } from './emit/entities.ts';
import { emitManifestTypes } from './emit/manifestTypes.ts';
import { emitPermissions } from './emit/permissions.ts';
import { emitRoutes } from './emit/routes.ts';
import { emitSidebar } from './emit/sidebar.ts';
import { emitTypes } from './emit/types.ts';
import { createStandaloneAjv, emitValidators, hasValidators } from './emit/validators.ts';
import type { ManifestError } from './errors.ts';
import { loadManifest } from './load.ts';
import type { ProjectModel } from '../contract/description.ts';
import { resolveManifest } from './resolve.ts';
import { validateManifest } from './validate/manifest.ts';

/** The folders the generator owns, relative to the output root; nothing else is ever written. */
export const GENERATED_DIRS = ['codegen/generated', 'server/generated', 'src/generated'] as const;

/** Relative path (with forward slashes) → file text. */
export type GeneratedFiles = Map<string, string>;

export type BuildResult = { model: ProjectModel; errors: [] } | { model: null; errors: ManifestError[] };

/** load → validate → resolve. */
export async function buildModel(manifestDir: string): Promise<BuildResult> {
  const loaded = await loadManifest(manifestDir);
  const errors = [...loaded.errors, ...validateManifest(loaded.areas)];
  if (errors.length > 0) return { model: null, errors };
  return { model: resolveManifest(loaded.areas), errors: [] };
}

/** emit: every generated file of the model, in memory. */
export async function emitAll(model: ProjectModel): Promise<GeneratedFiles> {
  const files: GeneratedFiles = new Map();
  files.set('codegen/generated/manifest.ts', await emitManifestTypes());
  files.set('src/generated/permissions.ts', emitPermissions(model));
  files.set('src/generated/types.ts', emitTypes());
  files.set('src/generated/routes.ts', emitRoutes(model));
  files.set('src/generated/sidebar.ts', emitSidebar(model));
  files.set('src/generated/entities.ts', await emitEntities(model));
  files.set('server/generated/areas/index.ts', emitAreaIndex(model));
  for (const area of model.areas) {
    const description = emitAreaDescription(area);
    files.set(`src/generated/areas/${area.path}.json`, description.console);
    files.set(`server/generated/areas/${area.path}.json`, description.server);
    files.set(`src/generated/areas/${area.path}.ts`, emitAreaModule(area));
    // An instance per area: its functions are named from validate0 in each file, so one area's change renames nothing in another's.
    if (hasValidators(area))
      files.set(`src/generated/validators/${area.path}.ts`, emitValidators(area, createStandaloneAjv()));
  }
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : 1)));
}

export interface Drift {
  stale: string[];
  missing: string[];
  extra: string[];
}

/** Compares in memory with what is on disk; writes nothing. */
export async function findDrift(outDir: string, files: GeneratedFiles): Promise<Drift> {
  const drift: Drift = { stale: [], missing: [], extra: [] };
  const paths = [...files.keys()];
  const current = await Promise.all(paths.map((path) => readFile(join(outDir, path), 'utf8').catch(() => null)));
  paths.forEach((path, index) => {
    if (current[index] === null) drift.missing.push(path);
    else if (current[index] !== files.get(path)) drift.stale.push(path);
  });
  for (const path of await existingGeneratedFiles(outDir)) if (!files.has(path)) drift.extra.push(path);
  return drift;
}

export interface WriteReport {
  written: string[];
  removed: string[];
  unchanged: number;
}

/** write: only files whose bytes change; generated files that no longer belong are removed. */
export async function writeGenerated(outDir: string, files: GeneratedFiles): Promise<WriteReport> {
  const report: WriteReport = { written: [], removed: [], unchanged: 0 };
  const drift = await findDrift(outDir, files);
  report.written = [...drift.missing, ...drift.stale].sort();
  for (const folder of new Set(report.written.map((path) => dirname(join(outDir, path)))))
    await mkdir(folder, { recursive: true });
  await Promise.all(report.written.map((path) => writeFile(join(outDir, path), files.get(path)!)));
  for (const path of drift.extra) {
    await rm(join(outDir, path));
    report.removed.push(path);
  }
  report.unchanged = files.size - report.written.length;
  return report;
}

async function existingGeneratedFiles(outDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else found.push(relative(outDir, path).split('\\').join('/'));
    }
  };
  for (const dir of GENERATED_DIRS) await walk(join(outDir, dir));
  return found.sort();
}
