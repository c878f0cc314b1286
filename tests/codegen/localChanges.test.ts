import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addModule } from '../../codegen/addModule.ts';
import { buildModel, emitAll, type GeneratedFiles } from '../../codegen/index.ts';

/** The files every area is listed in: a new module changes them, and only them, beside its own. */
const SHARED_INDEXES = [
  'src/generated/permissions.ts',
  'src/generated/routes.ts',
  'src/generated/sidebar.ts',
  'src/generated/entities.ts',
  'server/generated/areas/index.ts',
];

const folders: string[] = [];
afterAll(async () => {
  for (const folder of folders) await rm(folder, { recursive: true, force: true });
});

async function generated(manifestDir: string): Promise<GeneratedFiles> {
  const built = await buildModel(manifestDir);
  expect(built.errors).toEqual([]);
  return emitAll(built.model!);
}

/** The generated files that differ between two outputs, added and removed ones included. */
function changed(before: GeneratedFiles, after: GeneratedFiles): string[] {
  return [...new Set([...before.keys(), ...after.keys()])]
    .filter((path) => before.get(path) !== after.get(path))
    .sort();
}

describe("a module added to the product's manifest", () => {
  it.each([
    [
      'a new area, after the others',
      { area: 'warehouse-management', areaKey: 'WAREHOUSE_MANAGEMENT', areaLabel: 'Warehouses' },
      null,
    ],
    [
      'a new area, first of all (order 0)',
      { area: 'warehouse-management', areaKey: 'WAREHOUSE_MANAGEMENT', areaLabel: 'Warehouses' },
      0,
    ],
    ['a resource of an existing area', { area: 'masters' }, null],
  ] as const)(
    "as %s changes its area's files and the shared indexes, nothing of another area",
    async (_case, area, order) => {
      const manifestDir = await mkdtemp(join(tmpdir(), 'manifest-'));
      folders.push(manifestDir);
      await cp(join(import.meta.dirname, '../../manifest'), manifestDir, { recursive: true });
      const before = await generated(manifestDir);
      const added = await addModule(manifestDir, {
        ...area,
        key: 'WAREHOUSES',
        label: 'Warehouses',
        path: 'warehouses',
        actions: ['view', 'add', 'edit', 'delete'],
        fields: ['name:string:required', 'code:string:required:unique'],
      });
      expect(added.errors).toEqual([]);
      const text =
        order === null ? added.text! : JSON.stringify({ ...(JSON.parse(added.text!) as object), order }, null, 2);
      await writeFile(join(manifestDir, added.file!), text);
      const after = await generated(manifestDir);
      const ownFiles = changed(before, after).filter((path) => path.includes(`/${area.area}.`));
      expect(ownFiles.length).toBeGreaterThan(0);
      expect(
        changed(before, after).filter((path) => !ownFiles.includes(path) && !SHARED_INDEXES.includes(path)),
      ).toEqual([]);
    },
  );
});
