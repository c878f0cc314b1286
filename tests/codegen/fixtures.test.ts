import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildModel, emitAll, type GeneratedFiles } from '../../codegen/index.ts';
import { noDecisions } from '../../codegen/migrations/decisions.ts';
import { draftMigration } from '../../codegen/migrations/draftMigration.ts';
import { MANIFEST_MIGRATIONS } from '../../contract/manifestMigrations.ts';
import { readDescription } from '../../server/registry.ts';
import { fixturesDir } from './helpers.ts';

// Each tests/fixtures/<case>/ holds a manifest/ and the expected/ output; UPDATE_FIXTURES=1 rewrites expected/.
// Beside the generated files, expected/server/migrations/manifest/ holds the first migration make-migration writes for
// the manifest's tables.
const cases = (await readdir(fixturesDir)).sort();

async function expectedOutput(name: string): Promise<GeneratedFiles> {
  const built = await buildModel(join(fixturesDir, name, 'manifest'));
  expect(built.errors).toEqual([]);
  const files = await emitAll(built.model!);
  const first = await draftMigration(built.model!, [], { name: 'initial', decisions: noDecisions(), ask: null });
  if (first.kind !== 'draft') throw new Error(`${name}: no first migration (${first.kind})`);
  files.set(`${MANIFEST_MIGRATIONS}/${first.name}.sql`, first.sql);
  files.set(`${MANIFEST_MIGRATIONS}/${first.name}.shape.json`, first.shape);
  return files;
}

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('generation from fixture manifests', () => {
  it.each(cases)('%s generates exactly its expected files', async (name) => {
    const files = await expectedOutput(name);
    const expectedDir = join(fixturesDir, name, 'expected');
    if (process.env.UPDATE_FIXTURES === '1') {
      await rm(expectedDir, { recursive: true, force: true });
      for (const [path, text] of files) {
        await mkdir(dirname(join(expectedDir, path)), { recursive: true });
        await writeFile(join(expectedDir, path), text);
      }
    }
    expect([...files.keys()].sort()).toEqual(await listFiles(expectedDir));
    for (const [path, text] of files) expect(text, path).toBe(await readFile(join(expectedDir, path), 'utf8'));
  });

  it.each(cases)(
    '%s: the description the server reads back from the written files is the one generated',
    async (name) => {
      const built = await buildModel(join(fixturesDir, name, 'manifest'));
      const folder = join(fixturesDir, name, 'expected', 'server', 'generated', 'areas');
      const index = (await import(join(folder, 'index.ts'))) as {
        AREA_DESCRIPTIONS: { written: unknown; serverFacts: unknown }[];
      };
      const areas = readDescription(index.AREA_DESCRIPTIONS);
      expect(areas.length).toBeGreaterThan(0);
      expect(areas).toEqual([...built.model!.areas].sort((a, b) => a.moduleOrder - b.moduleOrder));
    },
  );
});
