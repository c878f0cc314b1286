import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { projectRoot, scratchManifest, tempDir } from './helpers.ts';

const bin = join(projectRoot, 'cli', 'bin.mjs');
const COMMANDS = ['generate', 'check', 'validate', 'add-module', 'make-migration', 'plan'];

/** Runs the CLI as a child process, as a developer would. */
async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], { cwd: projectRoot });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('admin-codegen CLI', () => {
  it('prints help listing every command, exit 0', async () => {
    const result = await cli('--help');
    expect(result.code).toBe(0);
    for (const command of COMMANDS) expect(result.stdout).toContain(command);
  });

  it.each(COMMANDS)('has --help for %s', async (command) => {
    const result = await cli(command, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`Usage: admin-codegen ${command}`));
  });

  it('exits 2 on an unknown command and on a missing required option', async () => {
    expect((await cli('generat')).code).toBe(2);
    const missing = await cli('add-module', '--area', 'x');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/required option/);
  });

  it('validate exits 1 and prints file:/pointer: message for each error', async () => {
    const dir = await scratchManifest();
    const file = join(dir, 'voucher-management.json');
    const document = JSON.parse(await readFile(file, 'utf8'));
    document.resources[0].actions.push('approve');
    document.resources[0].colour = 'red';
    await (await import('node:fs/promises')).writeFile(file, JSON.stringify(document));
    const result = await cli('validate', '--manifest', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('voucher-management.json:/resources/0/actions/6: unknown action');
    expect(result.stderr).toContain('voucher-management.json:/resources/0/colour: unknown property "colour"');
    expect(result.stderr).toContain('2 manifest error(s).');
  });

  it('add-module round trip: the new module validates, generates, gets its migration, checks and appears in routes and sidebar', async () => {
    const dir = await scratchManifest();
    const out = await tempDir('out');
    expect((await cli('make-migration', '--manifest', dir, '--out', out, '--name', 'initial')).code).toBe(0);
    const added = await cli(
      'add-module',
      '--manifest',
      dir,
      '--out',
      out,
      '--area',
      'warehouse-management',
      '--area-key',
      'WAREHOUSE_MANAGEMENT',
      '--area-label',
      'Warehouse Management',
      '--key',
      'WAREHOUSE',
      '--label',
      'Warehouses',
      '--path',
      'warehouses',
      '--actions',
      'view,add,edit,delete',
      '--field',
      'name:string:required:unique',
      '--field',
      'pincode:pincode',
      '--field',
      'capacity:integer',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('wrote server/migrations/manifest/0002_add_warehouse.sql');
    expect((await cli('validate', '--manifest', dir)).code).toBe(0);
    expect(await cli('check', '--manifest', dir, '--out', out)).toMatchObject({ code: 0, stderr: '' });
    const routes = await readFile(join(out, 'src/generated/routes.ts'), 'utf8');
    expect(routes).toContain('"path": "/warehouse-management/warehouses/add"');
    const sidebar = await readFile(join(out, 'src/generated/sidebar.ts'), 'utf8');
    expect(sidebar).toContain('"link": "/warehouse-management"');
    const sql = await readFile(join(out, 'server/migrations/manifest/0002_add_warehouse.sql'), 'utf8');
    expect(sql).toContain('-- step: create table warehouse (module WAREHOUSE)');
    expect(sql).toContain('CREATE UNIQUE INDEX IF NOT EXISTS "warehouse_name_key"');
    const area = JSON.parse(await readFile(join(dir, 'warehouse-management.json'), 'utf8'));
    expect(area.resources[0].entity).toMatchObject({ history: true, softDelete: true });
  }, 60_000);

  it('add-module --unique adds a composite key; one naming a missing field is refused with its pointer and nothing is written', async () => {
    const dir = await scratchManifest();
    const out = await tempDir('out');
    expect((await cli('make-migration', '--manifest', dir, '--out', out, '--name', 'initial')).code).toBe(0);
    const common = [
      '--manifest',
      dir,
      '--out',
      out,
      '--area',
      'warehouse-management',
      '--key',
      'WAREHOUSE',
      '--label',
      'Warehouses',
      '--path',
      'warehouses',
    ];
    const refused = await cli(
      'add-module',
      ...common,
      '--field',
      'city:string',
      '--field',
      'pincode:pincode',
      '--unique',
      'city,postcode',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/warehouse-management\.json:\/resources\/0\/entity\/unique\/0.*postcode/);
    expect(await readdir(dir)).not.toContain('warehouse-management.json');
    const added = await cli(
      'add-module',
      ...common,
      '--field',
      'city:string',
      '--field',
      'pincode:pincode',
      '--unique',
      'city,pincode',
      '--no-soft-delete',
      '--no-history',
    );
    expect(added.stderr).toBe('');
    expect(added.code).toBe(0);
    const sql = await readFile(join(out, 'server/migrations/manifest/0002_add_warehouse.sql'), 'utf8');
    expect(
      JSON.parse(await readFile(join(dir, 'warehouse-management.json'), 'utf8')).resources[0].entity,
    ).toMatchObject({ history: false, softDelete: false });
    expect(sql).toContain(
      'CREATE UNIQUE INDEX IF NOT EXISTS "warehouse_city_pincode_key" ON "warehouse" ("city", "pincode")',
    );
  }, 60_000);

  it('add-module refuses a clash and writes nothing', async () => {
    const dir = await scratchManifest();
    const before = await readFile(join(dir, 'voucher-management.json'), 'utf8');
    const result = await cli(
      'add-module',
      '--manifest',
      dir,
      '--out',
      await tempDir('out'),
      '--area',
      'voucher-management',
      '--key',
      'VOUCHER',
      '--label',
      'Again',
      '--path',
      'again',
      '--field',
      'code:string',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('module key "VOUCHER" is already used');
    expect(await readFile(join(dir, 'voucher-management.json'), 'utf8')).toBe(before);
  });
});
