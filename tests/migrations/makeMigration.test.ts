import { cp, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../cli/main.ts';
import type { Io } from '../../cli/options.ts';
import { MANIFEST_MIGRATIONS } from '../../contract/manifestMigrations.ts';
import { editJson, tempDir } from '../codegen/helpers.ts';

const SERIES = join(import.meta.dirname, 'series');

/** A project folder whose migrations stop at the series' first version, and a manifest to edit from there. */
async function project(): Promise<{ out: string; manifest: string }> {
  const out = await tempDir('project');
  const manifest = await tempDir('manifest');
  await cp(join(SERIES, '01-initial', 'manifest'), manifest, { recursive: true });
  expect((await run(out, manifest, ['make-migration', '--name', 'initial'])).code).toBe(0);
  return { out, manifest };
}

async function run(out: string, manifest: string, args: string[], answers: string[] | null = null) {
  const lines: string[] = [];
  const errors: string[] = [];
  const questions: string[] = [];
  const io: Io = { log: (line) => lines.push(line), error: (line) => errors.push(line) };
  if (answers) {
    io.ask = async (question) => {
      questions.push(question);
      return answers.shift() ?? '';
    };
  }
  const code = await main(['node', 'admin-codegen', ...args, '--manifest', manifest, '--out', out], io);
  return { code, lines, errors, questions };
}

const written = async (out: string) => (await readdir(join(out, MANIFEST_MIGRATIONS))).sort();
const voucherFile = (manifest: string) => join(manifest, 'voucher-management.json');
const renameDescription = (manifest: string) =>
  editJson(voucherFile(manifest), (area) => {
    const vouchers = area.resources[1];
    const { description, ...rest } = vouchers.entity.schema.properties;
    vouchers.entity.schema.properties = { ...rest, details: description };
    vouchers.list.columns = ['code', 'details', 'is_active'];
    vouchers.list.search = ['code', 'details'];
  });

describe('make-migration: what the shapes cannot tell is asked on a terminal, refused elsewhere, never guessed', () => {
  it('without a terminal a possible rename is refused naming each flag that decides it, and nothing is written', async () => {
    const { out, manifest } = await project();
    await renameDescription(manifest);
    const refused = await run(out, manifest, ['make-migration']);
    expect(refused.code).toBe(1);
    expect(refused.errors).toEqual([
      [
        'vouchers.description is gone and vouchers.details is new: was it renamed? Say which, and run again:',
        '  --rename vouchers.description=details            its values follow the new name',
        '  --removed vouchers.description                   removed: its values are kept in a table of their own',
        '  --drop vouchers.description                      removed, and its values dropped',
      ].join('\n'),
      'Nothing was written.',
    ]);
    expect(await written(out)).toEqual(['0001_initial.shape.json', '0001_initial.sql']);
  });

  it('on a terminal it asks "Did you rename ...?": yes writes the rename the flag would, no a removal that keeps the values', async () => {
    const flagged = await project();
    await renameDescription(flagged.manifest);
    expect(
      (
        await run(flagged.out, flagged.manifest, [
          'make-migration',
          '--name',
          'details',
          '--rename',
          'vouchers.description=details',
        ])
      ).code,
    ).toBe(0);

    const asked = await project();
    await renameDescription(asked.manifest);
    const yes = await run(asked.out, asked.manifest, ['make-migration', '--name', 'details'], ['y']);
    expect(yes.questions).toEqual(['Did you rename vouchers.description (text) to vouchers.details (text)? [y/N] ']);
    expect(yes.code).toBe(0);
    const sql = (project: { out: string }) =>
      readFile(join(project.out, MANIFEST_MIGRATIONS, '0002_details.sql'), 'utf8');
    expect(await sql(asked)).toBe(await sql(flagged));
    // A deleted voucher and each version in the audit log keep the field under its new name.
    expect(await sql(flagged)).toContain(
      `UPDATE trash SET stored_row = (stored_row - 'description') || jsonb_build_object('details', stored_row -> 'description') WHERE module = 'OFFER' AND stored_row ? 'description';`,
    );
    expect(await sql(flagged)).toContain(
      `UPDATE audit_log SET snapshot = (snapshot - 'description') || jsonb_build_object('details', snapshot -> 'description') WHERE module = 'OFFER' AND snapshot ? 'description';`,
    );

    const declined = await project();
    await renameDescription(declined.manifest);
    expect((await run(declined.out, declined.manifest, ['make-migration', '--name', 'details'], ['n'])).code).toBe(0);
    const removal = await sql(declined);
    expect(removal).toContain(
      'CREATE TABLE "vouchers_removed_0002" AS SELECT id, "description" FROM "vouchers" WHERE "description" IS NOT NULL;',
    );
    expect(removal).toContain('ALTER TABLE "vouchers" ADD COLUMN IF NOT EXISTS "details" text;');
    expect(removal).not.toContain('RENAME COLUMN');
  });

  it('a field becoming required without a default needs a value for the rows already stored: --backfill, or an answer; a value it cannot hold is refused', async () => {
    const { out, manifest } = await project();
    await editJson(voucherFile(manifest), (area) => {
      const schema = area.resources[1].entity.schema;
      schema.properties.priority = { title: 'Priority', type: 'integer' };
      schema.required = ['code', 'priority', 'discount_type'];
    });
    const refused = await run(out, manifest, ['make-migration']);
    expect(refused.code).toBe(1);
    expect(refused.errors).toEqual([
      'vouchers.discount_type is now required, and the manifest gives it no default: the rows already stored need a value. Give the field a "default" in the manifest, or say --backfill vouchers.discount_type=<value>.',
      'vouchers.priority is new and required, and the manifest gives it no default: the rows already stored need a value. Give the field a "default" in the manifest, or say --backfill vouchers.priority=<value>.',
      'Nothing was written.',
    ]);
    const unfit = await run(out, manifest, [
      'make-migration',
      '--backfill',
      'vouchers.priority=high',
      '--backfill',
      'vouchers.discount_type=free',
    ]);
    expect(unfit.errors).toEqual([
      '--backfill vouchers.priority="high": expected an integer.',
      '--backfill vouchers.discount_type="free": expected one of percent, flat, fixed.',
      'Nothing was written.',
    ]);

    const answered = await run(
      out,
      manifest,
      ['make-migration', '--name', 'priority', '--backfill', 'vouchers.discount_type=flat'],
      ['2'],
    );
    expect(answered.questions).toEqual([
      'vouchers.priority is new and required, and the manifest gives it no default. The value of the rows already stored (JSON, or text): ',
    ]);
    expect(answered.code).toBe(0);
    const sql = await readFile(join(out, MANIFEST_MIGRATIONS, '0002_priority.sql'), 'utf8');
    expect(sql).toContain(`UPDATE "vouchers" SET "discount_type" = 'flat' WHERE "discount_type" IS NULL;`);
    expect(sql).toContain('ALTER TABLE "vouchers" ADD COLUMN IF NOT EXISTS "priority" bigint DEFAULT 2;');
  });

  it('flags that name nothing to decide, or cannot be read, are refused', async () => {
    const { out, manifest } = await project();
    await renameDescription(manifest);
    const wrong = await run(out, manifest, [
      'make-migration',
      '--rename',
      'vouchers.code=details',
      '--drop',
      'vouchers.code',
      '--backfill',
      'vouchers.code=X',
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.errors).toEqual(
      expect.arrayContaining([
        '--rename vouchers.code=details: the manifest still has vouchers.code, or the last migration has no vouchers.code',
        '--drop vouchers.code: it is not gone from the manifest',
        '--backfill vouchers.code: vouchers.code does not become required',
      ]),
    );
    const unreadable = await run(out, manifest, [
      'make-migration',
      '--rename',
      'vouchers-description',
      '--removed',
      'Vouchers.Description',
    ]);
    expect(unreadable.code).toBe(2);
    expect(unreadable.errors).toEqual([
      '--rename vouchers-description: expected table.field=new_field, table=new_table or MODULE=NEW_MODULE',
      '--removed Vouchers.Description: expected table, table.field or MODULE',
    ]);
  });

  it('a module gone while another appeared is asked about too; a rename moves its grants', async () => {
    const { out, manifest } = await project();
    await editJson(voucherFile(manifest), (area) => {
      area.key = 'OFFERS';
    });
    const refused = await run(out, manifest, ['make-migration']);
    expect(refused.errors[0]).toBe(
      [
        'module VOUCHER_MANAGEMENT is gone and module OFFERS is new: was it renamed? Say which, and run again:',
        '  --rename VOUCHER_MANAGEMENT=OFFERS               its grants follow the new name',
        '  --removed VOUCHER_MANAGEMENT                     removed: its grants are deleted',
      ].join('\n'),
    );
    expect(
      (await run(out, manifest, ['make-migration', '--name', 'offers', '--rename', 'VOUCHER_MANAGEMENT=OFFERS'])).code,
    ).toBe(0);
    const sql = await readFile(join(out, MANIFEST_MIGRATIONS, '0002_offers.sql'), 'utf8');
    expect(sql).toContain(`UPDATE role_permissions SET module = 'OFFERS' WHERE module = 'VOUCHER_MANAGEMENT';`);
    expect(sql).toContain(`UPDATE audit_log SET module = 'OFFERS' WHERE module = 'VOUCHER_MANAGEMENT';`);
    expect(sql).toContain(`UPDATE trash SET module = 'OFFERS' WHERE module = 'VOUCHER_MANAGEMENT';`);
  });

  it('--empty writes a migration of your own steps that keeps the data shape; refused without a name or while the shape changed', async () => {
    const { out, manifest } = await project();
    const unnamed = await run(out, manifest, ['make-migration', '--empty']);
    expect(unnamed.code).toBe(1);
    expect(unnamed.errors).toEqual(['--empty needs --name saying what the migration does.', 'Nothing was written.']);

    const made = await run(out, manifest, ['make-migration', '--empty', '--name', 'search storage']);
    expect(made.code).toBe(0);
    expect(await written(out)).toEqual([
      '0001_initial.shape.json',
      '0001_initial.sql',
      '0002_search_storage.shape.json',
      '0002_search_storage.sql',
    ]);
    const folder = join(out, MANIFEST_MIGRATIONS);
    expect(await readFile(join(folder, '0002_search_storage.shape.json'), 'utf8')).toBe(
      await readFile(join(folder, '0001_initial.shape.json'), 'utf8'),
    );
    expect(await readFile(join(folder, '0002_search_storage.sql'), 'utf8')).toContain(
      "the data shape stays 0001_initial's.",
    );
    expect((await run(out, manifest, ['make-migration'])).lines[0]).toMatch(/^No change: .* 0002_search_storage /);

    await renameDescription(manifest);
    const changed = await run(out, manifest, ['make-migration', '--empty', '--name', 'more']);
    expect(changed.code).toBe(1);
    expect(changed.errors[0]).toBe(
      "--empty: the manifest's data shape changed since 0002_search_storage; run make-migration without --empty first.",
    );
    expect(await written(out)).toHaveLength(4);
  });
});
