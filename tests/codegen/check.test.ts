import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildModel, emitAll, findDrift, writeGenerated, type GeneratedFiles } from '../../codegen/index.ts';
import { main } from '../../cli/main.ts';
import { MANIFEST_MIGRATIONS } from '../../contract/manifestMigrations.ts';
import { editJson, fixturesDir, scratchManifest, tempDir } from './helpers.ts';

const fixtureManifest = join(fixturesDir, 'minimal', 'manifest');

async function generatedFiles(manifest = fixtureManifest): Promise<GeneratedFiles> {
  return emitAll((await buildModel(manifest)).model!);
}

async function run(
  out: string,
  args: string[],
  manifest = fixtureManifest,
): Promise<{ code: number; errors: string[]; lines: string[] }> {
  const errors: string[] = [];
  const lines: string[] = [];
  const code = await main(['node', 'admin-codegen', ...args, '--manifest', manifest, '--out', out], {
    log: (line) => lines.push(line),
    error: (line) => errors.push(line),
  });
  return { code, errors, lines };
}

const runCheck = (out: string, manifest = fixtureManifest) =>
  run(out, ['check'], manifest).then(({ code, errors }) => ({ code, errors }));

describe('check and write', () => {
  let out: string;
  beforeEach(async () => {
    out = await tempDir('generated');
    await writeGenerated(out, await generatedFiles());
    expect((await run(out, ['make-migration', '--name', 'initial'])).code).toBe(0);
  });

  it('passes when the generated files match the manifest', async () => {
    expect(await runCheck(out)).toEqual({ code: 0, errors: [] });
  });

  it('catches an edited generated file', async () => {
    const path = join(out, 'src/generated/sidebar.ts');
    await writeFile(path, (await readFile(path, 'utf8')).replace('/voucher-management', '/vouchers-elsewhere'));
    const result = await runCheck(out);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('stale: src/generated/sidebar.ts');
  });

  it('catches an edited area description, the data the server and the console read', async () => {
    const path = join(out, 'src/generated/areas/voucher-management.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"pageSize": 20', '"pageSize": 50'));
    const result = await runCheck(out);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('stale: src/generated/areas/voucher-management.json');
  });

  it('catches a deleted generated file', async () => {
    await rm(join(out, 'src/generated/routes.ts'));
    const result = await runCheck(out);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('missing: src/generated/routes.ts');
  });

  it('catches an extra file in a generated folder', async () => {
    await writeFile(join(out, 'src/generated/areas/old-area.ts'), 'export {};\n');
    const result = await runCheck(out);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('extra: src/generated/areas/old-area.ts');
  });

  it('check writes nothing', async () => {
    await rm(join(out, 'src/generated/routes.ts'));
    await runCheck(out);
    await expect(stat(join(out, 'src/generated/routes.ts'))).rejects.toThrow();
  });

  it('fails on a manifest change no migration makes, naming the change and the command, until make-migration writes it', async () => {
    const manifest = await scratchManifest();
    await editJson(join(manifest, 'voucher-management.json'), (area) => {
      const properties = area.resources[0].entity.schema.properties;
      properties.details = properties.description;
      delete properties.description;
    });
    await writeGenerated(out, await generatedFiles(manifest));
    const unmigrated = await runCheck(out, manifest);
    expect(unmigrated.code).toBe(1);
    expect(unmigrated.errors).toEqual([
      "the manifest's data shape is not the one the last migration (0001_initial) leaves:",
      '  - voucher.description is gone',
      '  - voucher.details is new (text)',
      'Write the migration with `npm run make-migration -- --name "<what changed>"`, review it and commit it with the manifest.',
      'make-migration will need to be told:',
      expect.stringMatching(
        /^voucher\.description is gone and voucher\.details is new: was it renamed\? Say which, and run again:\n {2}--rename voucher\.description=details +its values follow the new name\n/,
      ),
    ]);

    const refused = await run(out, ['make-migration'], manifest);
    expect(refused.code).toBe(1);
    expect(refused.errors.at(-1)).toBe('Nothing was written.');
    expect(await readdir(join(out, MANIFEST_MIGRATIONS))).toEqual(['0001_initial.shape.json', '0001_initial.sql']);

    const written = await run(out, ['make-migration', '--rename', 'voucher.description=details'], manifest);
    expect(written.errors).toEqual([]);
    expect(written.lines).toContain(`wrote ${MANIFEST_MIGRATIONS}/0002_voucher.sql`);
    expect(await readFile(join(out, MANIFEST_MIGRATIONS, '0002_voucher.sql'), 'utf8')).toContain(
      'ALTER TABLE "voucher" RENAME COLUMN "description" TO "details";',
    );
    expect(await runCheck(out, manifest)).toEqual({ code: 0, errors: [] });
    expect((await run(out, ['make-migration'], manifest)).lines).toEqual([
      "No change: the manifest's data shape is the one migration 0002_voucher leaves. Nothing was written.",
    ]);
  });

  it('write touches only files whose bytes change, and removes extra ones', async () => {
    const sidebar = join(out, 'src/generated/sidebar.ts');
    const before = (await stat(join(out, 'src/generated/routes.ts'))).mtimeMs;
    await writeFile(sidebar, 'edited');
    await writeFile(join(out, 'src/generated/leftover.ts'), 'x');
    const report = await writeGenerated(out, await generatedFiles());
    expect(report.written).toEqual(['src/generated/sidebar.ts']);
    expect(report.removed).toEqual(['src/generated/leftover.ts']);
    expect((await stat(join(out, 'src/generated/routes.ts'))).mtimeMs).toBe(before);
    expect(await findDrift(out, await generatedFiles())).toEqual({ stale: [], missing: [], extra: [] });
  });

  it('is deterministic: two runs give identical bytes', async () => {
    const first = await generatedFiles();
    const second = await generatedFiles();
    expect([...second]).toEqual([...first]);
  });
});
