import type { DataShape, TableShape } from '../../contract/dataShape.ts';
import type { MigrationStep } from '../../contract/migrationSteps.ts';
import {
  foreignKeyName,
  quoted as q,
  relationIndexName,
  removedValuesTableName,
  searchIndexName,
  sortIndexName,
  uniqueIndexName,
} from '../sqlNames.ts';
import type { MigrationDecisions } from './decisions.ts';
import { Renames } from './renamedShape.ts';
import { conversion, quotedText, refuseRows, sqlLiteral } from './sqlValues.ts';
import {
  addColumn,
  createRelationIndex,
  createSearchIndex,
  createSortIndex,
  createTable,
  createUniqueKey,
  SHARED_FUNCTIONS,
  tableContents,
} from './tableSql.ts';
import { renameSteps } from './renameSql.ts';

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

const count = (table: string, where = '') => `SELECT count(*) FROM ${q(table)}${where ? ` WHERE ${where}` : ''}`;
const sameKey = (a: readonly string[], b: readonly string[]) => a.join() === b.join();

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
      rows: count(table),
      sql: tableContents(table, next.tables[table]!),
    })),
  ];
}

/** Unique keys, search and sort indexes and relations that go away or change, under their names before the renames. */
function leavingKeys(table: string, before: TableShape, after: TableShape, names: Renames): MigrationStep[] {
  const oldTable = names.oldTable(table);
  const old = (field: string) => names.oldField(table, field);
  const statements: string[] = [];
  for (const key of before.unique) {
    if (!after.unique.some((kept) => sameKey(kept, key)))
      statements.push(`DROP INDEX IF EXISTS ${q(uniqueIndexName(oldTable, key.map(old)))};`);
  }
  if (before.search.length > 0 && !sameKey(before.search, after.search))
    statements.push(`DROP INDEX IF EXISTS ${q(searchIndexName(oldTable))};`);
  if (before.sort && before.sort !== after.sort)
    statements.push(`DROP INDEX IF EXISTS ${q(sortIndexName(oldTable, old(before.sort)))};`);
  for (const [field, column] of Object.entries(before.columns)) {
    if (!column.references || !after.columns[field] || after.columns[field]!.references === column.references) continue;
    statements.push(`ALTER TABLE ${q(oldTable)} DROP CONSTRAINT IF EXISTS ${q(foreignKeyName(oldTable, old(field)))};`);
    statements.push(`DROP INDEX IF EXISTS ${q(relationIndexName(oldTable, old(field)))};`);
  }
  return statements.length
    ? [{ title: `drop the keys and indexes of ${oldTable} that change`, rows: null, sql: statements.join('\n') }]
    : [];
}

/** Type changes, each with its conversion, refused naming the rows whose values do not convert. */
function conversions(table: string, before: TableShape, after: TableShape, names: Renames): MigrationStep[] {
  const oldTable = names.oldTable(table);
  return Object.entries(after.columns)
    .filter(([field, column]) => before.columns[field] && before.columns[field]!.type !== column.type)
    .map(([field, column]) => {
      const oldField = names.oldField(table, field);
      const from = before.columns[field]!.type;
      const { using, unconvertible } = conversion(q(oldField), from, column.type);
      const guard = unconvertible
        ? `${refuseRows(oldTable, `hold a ${oldField} that does not convert from ${from} to ${column.type}`, `SELECT id FROM ${q(oldTable)} WHERE ${unconvertible}`)}\n`
        : '';
      return {
        title: `convert ${oldTable}.${oldField} from ${from} to ${column.type}`,
        rows: count(oldTable, `${q(oldField)} IS NOT NULL`),
        sql: `${guard}ALTER TABLE ${q(oldTable)} ALTER COLUMN ${q(oldField)} TYPE ${column.type} USING ${using};`,
      };
    });
}

/** Fields gone from a table that stays: their values copied, with the row's id, to a table of their own unless dropped. */
function removedFields(
  table: string,
  before: TableShape,
  after: TableShape,
  names: Renames,
  number: string,
): MigrationStep[] {
  const gone = Object.keys(before.columns).filter((field) => !after.columns[field]);
  if (gone.length === 0) return [];
  const kept = gone.filter((field) => !names.dropped(table, field));
  const backup = removedValuesTableName(table, number);
  const statements = kept.length
    ? [
        `CREATE TABLE ${q(backup)} AS SELECT id, ${kept.map(q).join(', ')} FROM ${q(table)} WHERE ${kept.map((field) => `${q(field)} IS NOT NULL`).join(' OR ')};`,
      ]
    : [];
  statements.push(`ALTER TABLE ${q(table)} ${gone.map((field) => `DROP COLUMN ${q(field)}`).join(', ')};`);
  const described = gone.map(
    (field) => `${table}.${field} (${kept.includes(field) ? `values kept in ${backup}` : 'values dropped'})`,
  );
  return [
    {
      title: `remove ${described.join(', ')}`,
      rows: count(table, gone.map((field) => `${q(field)} IS NOT NULL`).join(' OR ')),
      sql: statements.join('\n'),
    },
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
      rows: count(table),
      sql: `${keep ? `CREATE TABLE ${q(backup)} AS SELECT * FROM ${q(table)};\n` : ''}DROP TABLE ${q(table)};`,
    };
  });
}

/** New fields (the rows already stored get the backfill of a required one), required fields filled, allowed values checked. */
function newFieldsAndValues(
  table: string,
  before: TableShape,
  after: TableShape,
  defaults: ReadonlyMap<string, unknown>,
): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const [field, column] of Object.entries(after.columns)) {
    const was = before.columns[field];
    const value = column.required && !was?.required ? defaults.get(`${table}.${field}`) : undefined;
    const literal = value === undefined ? null : sqlLiteral(value, column.type);
    if (!was) {
      steps.push({
        title: `add ${table}.${field} (${column.type}${literal ? `; the rows already stored get ${literal}` : ''})`,
        rows: literal ? count(table) : null,
        sql: addColumn(table, field, column, literal),
      });
      continue;
    }
    if (literal) {
      steps.push({
        title: `fill ${table}.${field} where it is empty, now that it is required: ${literal}`,
        rows: count(table, `${q(field)} IS NULL`),
        sql: `UPDATE ${q(table)} SET ${q(field)} = ${literal} WHERE ${q(field)} IS NULL;`,
      });
    }
    const narrowed =
      column.enum &&
      (!was.enum || was.type !== column.type || was.enum.some((allowed) => !column.enum!.includes(allowed)));
    if (narrowed) {
      const allowed = column.enum!.map((item) => sqlLiteral(item, column.type)).join(', ');
      steps.push({
        title: `check that ${table}.${field} holds only ${column.enum!.join(', ')}`,
        rows: count(table, `${q(field)} IS NOT NULL`),
        sql: refuseRows(
          table,
          `hold a ${field} no longer allowed (allowed: ${column.enum!.join(', ')})`,
          `SELECT id FROM ${q(table)} WHERE ${q(field)} IS NOT NULL AND ${q(field)} NOT IN (${allowed})`,
        ),
      });
    }
    if (column.references && column.references !== was.references) {
      steps.push({
        title: `relate ${table}.${field} to ${column.references}`,
        rows: count(table, `${q(field)} IS NOT NULL`),
        sql: [
          refuseRows(
            table,
            `hold a ${field} with no row in ${column.references}`,
            `SELECT id FROM ${q(table)} AS t WHERE ${q(field)} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM ${q(column.references)} AS r WHERE r.id = t.${q(field)})`,
          ),
          `ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(foreignKeyName(table, field))} FOREIGN KEY (${q(field)}) REFERENCES ${q(column.references)} (id) ON DELETE RESTRICT;`,
          createRelationIndex(table, field),
        ].join('\n'),
      });
    }
  }
  return steps;
}

/** New unique keys (refused naming the rows that break them), and the search and sort indexes that changed. */
function newKeysAndIndexes(table: string, before: TableShape, after: TableShape): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const key of after.unique.filter((candidate) => !before.unique.some((kept) => sameKey(kept, candidate)))) {
    const columns = key.map(q).join(', ');
    const present = key.map((field) => `${q(field)} IS NOT NULL`).join(' AND ');
    steps.push({
      title: `unique key of ${table} (${key.join(', ')})`,
      rows: count(table),
      sql: `${refuseRows(table, `break the new unique key (${key.join(', ')})`, `SELECT id FROM (SELECT id, count(*) OVER (PARTITION BY ${columns}) AS same FROM ${q(table)} WHERE ${present}) AS keyed WHERE same > 1`)}\n${createUniqueKey(table, key)}`,
    });
  }
  if (after.search.length > 0 && !sameKey(before.search, after.search))
    steps.push({
      title: `search index of ${table} over ${after.search.join(', ')}`,
      rows: count(table),
      sql: createSearchIndex(table, after.search),
    });
  if (after.sort && after.sort !== before.sort)
    steps.push({
      title: `sort index of ${table} by ${after.sort}`,
      rows: null,
      sql: createSortIndex(table, after.sort),
    });
  return steps;
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
