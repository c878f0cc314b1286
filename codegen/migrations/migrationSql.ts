import type { DataShape } from '../../contract/dataShape.ts';
import type { MigrationStep } from '../../contract/migrationSteps.ts';
import { quoted as q, removedValuesTableName } from '../sqlNames.ts';
import type { MigrationDecisions } from './decisions.ts';
import { Renames } from './renamedShape.ts';
import { quotedText } from './sqlValues.ts';
import { countRows, createTable, SHARED_FUNCTIONS, tableContents } from './tableSql.ts';
import { renameSteps } from './renameSql.ts';
import { conversions, newFieldsAndValues, removedFields } from './fieldSql.ts';
import { leavingKeys, newKeysAndIndexes } from './keySql.ts';

export interface MigrationChange {
  /** The previous migration's shape; null for the first migration, which creates (or adopts) every table. */
  previous: DataShape | null;
  next: DataShape;
  decisions: MigrationDecisions;
  /** `table.field` → the manifest's default, for fields that become required. */
  defaults: ReadonlyMap<string, unknown>;
  /** The migration's number, which names the tables that keep removed values: `0003`. */
  number: string;
}

/**
 * The steps that take a database from the previous shape to the next, in an order where each step finds what it
 * needs: grants and keys that go away first, conversions while the names are still the old ones, renames, removals
 * (values kept in a table of their own unless dropped), new tables and fields, then what the rows must now fit
 * (checked, naming the rows that do not), new keys and indexes, and last the grants of what is gone.
 */
export function migrationSteps({ previous, next, decisions, defaults, number }: MigrationChange): MigrationStep[] {
  if (!previous) return firstMigration(next);
  const names = new Renames(decisions);
  const before = names.applyTo(previous);
  const staying = Object.keys(next.tables).filter((table) => before.tables[table]);
  const steps: MigrationStep[] = [];

  for (const [from, to] of decisions.moduleRenames) {
    steps.push({
      title: `move the grants, audit entries and trash of module ${from} to ${to}`,
      rows: `SELECT count(*) FROM role_permissions WHERE module = ${quotedText(from)}`,
      sql: ['role_permissions', 'verifications', 'audit_log', 'trash']
        .map((table) => `UPDATE ${table} SET module = ${quotedText(to)} WHERE module = ${quotedText(from)};`)
        .join('\n'),
    });
  }
  for (const table of staying) steps.push(...leavingKeys(table, before.tables[table]!, next.tables[table]!, names));
  for (const table of staying) steps.push(...conversions(table, before.tables[table]!, next.tables[table]!, names));
  steps.push(...renameSteps(staying, before, next, names));
  for (const table of staying)
    steps.push(...removedFields(table, before.tables[table]!, next.tables[table]!, names, number));
  steps.push(...removedTables(previous, next, names, number));

  const created = Object.keys(next.tables).filter((table) => !before.tables[table]);
  for (const table of created)
    steps.push({
      title: `create table ${table} (module ${next.tables[table]!.module})`,
      rows: null,
      sql: createTable(table),
    });
  for (const table of created)
    steps.push({
      title: `the fields, keys and indexes of ${table}`,
      rows: null,
      sql: tableContents(table, next.tables[table]!),
    });
  for (const table of staying)
    steps.push(...newFieldsAndValues(table, before.tables[table]!, next.tables[table]!, defaults));
  for (const table of staying) steps.push(...newKeysAndIndexes(table, before.tables[table]!, next.tables[table]!));
  steps.push(...leavingGrants(before, next));
  return steps;
}

/** Every table created, or adopted with its rows when a database made before migrations already has it. */
function firstMigration(next: DataShape): MigrationStep[] {
  const tables = Object.keys(next.tables);
  return [
    { title: 'the extension and function every table uses', rows: null, sql: SHARED_FUNCTIONS },
    { title: 'create the tables', rows: null, sql: tables.map(createTable).join('\n') },
    ...tables.map((table) => ({
      title: `the fields, keys and indexes of ${table} (module ${next.tables[table]!.module})`,
      rows: countRows(table),
      sql: tableContents(table, next.tables[table]!),
    })),
  ];
}
/** Tables gone: their rows copied to a table of their own (without keys, so they hold nothing back) unless dropped. */
function removedTables(previous: DataShape, next: DataShape, names: Renames, number: string): MigrationStep[] {
  const gone = Object.keys(previous.tables).filter((table) => !next.tables[table] && names.newTable(table) === table);
  const ordered: string[] = [];
  // A table that refers to another gone table goes first: nothing may refer to a table when it is dropped.
  while (ordered.length < gone.length) {
    const free = gone.filter(
      (table) =>
        !ordered.includes(table) &&
        !gone.some(
          (other) =>
            other !== table &&
            !ordered.includes(other) &&
            Object.values(previous.tables[other]!.columns).some((column) => column.references === table),
        ),
    );
    ordered.push(...(free.length ? free : gone.filter((table) => !ordered.includes(table))));
  }
  return ordered.map((table) => {
    const backup = removedValuesTableName(table, number);
    const keep = !names.dropped(table);
    return {
      title: `remove table ${table} (module ${previous.tables[table]!.module}), ${keep ? `its rows kept in ${backup}` : 'its rows dropped'}`,
      rows: countRows(table),
      sql: `${keep ? `CREATE TABLE ${q(backup)} AS SELECT * FROM ${q(table)};\n` : ''}DROP TABLE ${q(table)};`,
    };
  });
}
/** The grants of modules and actions that are gone: a role could not be saved with them (its matrix refuses them). */
function leavingGrants(before: DataShape, next: DataShape): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const [module, actions] of Object.entries(before.modules)) {
    const offered = next.modules[module];
    const gone = offered ? actions.filter((action) => !offered.includes(action)) : null;
    if (gone && gone.length === 0) continue;
    const where = `module = ${quotedText(module)}${gone ? ` AND action IN (${gone.map(quotedText).join(', ')})` : ''}`;
    steps.push({
      title: gone
        ? `delete the grants of ${module}'s actions that are gone: ${gone.join(', ')}`
        : `delete the grants of module ${module}, which is gone`,
      rows: `SELECT count(*) FROM role_permissions WHERE ${where}`,
      sql: `DELETE FROM role_permissions WHERE ${where};`,
    });
  }
  return steps;
}
