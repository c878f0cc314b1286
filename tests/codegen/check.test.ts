import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildModel, emitAll, findDrift, writeGenerated, type GeneratedFiles } from '../../codegen/index.ts';
import { main } from '../../cli/main.ts';
import { fixturesDir, tempDir } from './helpers.ts';

const manifest = join(fixturesDir, 'minimal', 'manifest');

async function generatedFiles(): Promise<GeneratedFiles> {
  return emitAll((await buildModel(manifest)).model!);
}

async function runCheck(out: string): Promise<{ code: number; errors: string[] }> {
  const errors: string[] = [];
  const code = await main(['node', 'admin-codegen', 'check', '--manifest', manifest, '--out', out], { log: () => {}, error: (line) => errors.push(line) });
  return { code, errors };
}

describe('check and write', () => {
  let out: string;
  beforeEach(async () => {
    out = await tempDir('generated');
    await writeGenerated(out, await generatedFiles());
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
    await rm(join(out, 'server/generated/tables.sql'));
    const result = await runCheck(out);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('missing: server/generated/tables.sql');
  });

  it('catches an extra file in a generated folder', async () => {
    await writeFile(join(out, 'src/generated/areas/old-area.ts'), 'export {};\n');
    const result = await runCheck(out);
    expect(result.code).toBe(1);
    expect(result.errors).toContain('extra: src/generated/areas/old-area.ts');
  });

  it('check writes nothing', async () => {
    await rm(join(out, 'server/generated/tables.sql'));
    await runCheck(out);
    await expect(stat(join(out, 'server/generated/tables.sql'))).rejects.toThrow();
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
