import type { TableShape } from '../../contract/dataShape.ts';
import type { MigrationStep } from '../../contract/migrationSteps.ts';
import { foreignKeyName, relationIndexName, searchIndexName, sortIndexName, uniqueIndexName } from '../sqlNames.ts';
import type { Renames } from './renamedShape.ts';
import { refuseRows } from './sqlValues.ts';
import { quoted as q } from '../sqlNames.ts';
import { countRows, createSearchIndex, createSortIndex, createUniqueKey } from './tableSql.ts';

const sameKey = (a: readonly string[], b: readonly string[]) => a.join() === b.join();

/** Unique keys, search and sort indexes and relations that go away or change, under their names before the renames. */
export function leavingKeys(table: string, before: TableShape, after: TableShape, names: Renames): MigrationStep[] {
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

/** New unique keys (refused naming the rows that break them), and the search and sort indexes that changed. */
export function newKeysAndIndexes(table: string, before: TableShape, after: TableShape): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const key of after.unique.filter((candidate) => !before.unique.some((kept) => sameKey(kept, candidate)))) {
    const columns = key.map(q).join(', ');
    const present = key.map((field) => `${q(field)} IS NOT NULL`).join(' AND ');
    steps.push({
      title: `unique key of ${table} (${key.join(', ')})`,
      rows: countRows(table),
      sql: `${refuseRows(table, `break the new unique key (${key.join(', ')})`, `SELECT id FROM (SELECT id, count(*) OVER (PARTITION BY ${columns}) AS same FROM ${q(table)} WHERE ${present}) AS keyed WHERE same > 1`)}\n${createUniqueKey(table, key)}`,
    });
  }
  if (after.search.length > 0 && !sameKey(before.search, after.search))
    steps.push({
      title: `search index of ${table} over ${after.search.join(', ')}`,
      rows: countRows(table),
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
