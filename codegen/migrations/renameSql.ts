import type { DataShape, TableShape } from '../../contract/dataShape.ts';
import type { MigrationStep } from '../../contract/migrationSteps.ts';
import {
  foreignKeyName,
  primaryKeyName,
  quoted as q,
  relationIndexName,
  searchIndexName,
  sortIndexName,
  uniqueIndexName,
} from '../sqlNames.ts';
import type { Renames } from './renamedShape.ts';
import { quotedText } from './sqlValues.ts';
import { tableTriggers } from './tableSql.ts';

/**
 * Table renames, then field renames. The keys, indexes and triggers named after a table or field are renamed with
 * it, so the names stay those the server and the next migration derive (a unique clash is reported on the field
 * its key's name says). What changes beyond its name was dropped before (`leavingKeys`) and is made again later.
 */
export function renameSteps(
  staying: readonly string[],
  before: DataShape,
  next: DataShape,
  names: Renames,
): MigrationStep[] {
  const steps: MigrationStep[] = [];
  for (const table of staying) {
    const oldTable = names.oldTable(table);
    if (oldTable === table) continue;
    const renamedFields = new Set(names.fieldRenamesOf(table).map(([, to]) => to));
    const derived = derivedNames(table, before.tables[table]!, next.tables[table]!, names).filter(
      ({ fields }) => !fields.some((field) => renamedFields.has(field)),
    );
    steps.push({
      title: `rename table ${oldTable} to ${table}`,
      rows: `SELECT count(*) FROM ${q(oldTable)}`,
      sql: [
        `ALTER TABLE ${q(oldTable)} RENAME TO ${q(table)};`,
        `ALTER INDEX ${q(primaryKeyName(oldTable))} RENAME TO ${q(primaryKeyName(table))};`,
        ...tableTriggers(oldTable).map(
          (trigger, index) =>
            `ALTER TRIGGER ${q(trigger)} ON ${q(table)} RENAME TO ${q(tableTriggers(table)[index]!)};`,
        ),
        ...derived.map(renameStatement(table)),
      ].join('\n'),
    });
  }
  for (const table of staying) {
    const derived = derivedNames(table, before.tables[table]!, next.tables[table]!, names);
    const done = new Set<string>();
    for (const [from, to] of names.fieldRenamesOf(table)) {
      const own = derived.filter(({ fields, oldName }) => fields.includes(to) && !done.has(oldName));
      for (const { oldName } of own) done.add(oldName);
      steps.push({
        title: `rename ${table}.${from} to ${to}`,
        rows: `SELECT count(*) FROM ${q(table)} WHERE ${q(from)} IS NOT NULL`,
        sql: [
          `ALTER TABLE ${q(table)} RENAME COLUMN ${q(from)} TO ${q(to)};`,
          ...own.map(renameStatement(table)),
          ...renameKept(next.tables[table]!.module, from, to),
        ].join('\n'),
      });
    }
  }
  return steps;
}

/**
 * The field's name in what the audit log and the trash keep of the module's records (a deleted record's row, each
 * entry's changes and version), so a renamed field still restores and reads under its new name.
 */
export function renameKept(module: string, from: string, to: string): string[] {
  const [m, f, t] = [module, from, to].map(quotedText);
  const renamed = (column: string) =>
    `UPDATE ${column === 'stored_row' ? 'trash' : 'audit_log'} SET ${column} = (${column} - ${f}) || jsonb_build_object(${t}, ${column} -> ${f}) WHERE module = ${m} AND ${column} ? ${f};`;
  return [renamed('stored_row'), renamed('snapshot'), renamed('changes')];
}

interface DerivedName {
  kind: 'index' | 'constraint';
  oldName: string;
  newName: string;
  /** The fields (new names) the name is made of. */
  fields: string[];
}

/** What a table keeps across the migration that is named after it or its fields, with its name before and after. */
function derivedNames(table: string, before: TableShape, after: TableShape, names: Renames): DerivedName[] {
  const oldTable = names.oldTable(table);
  const old = (field: string) => names.oldField(table, field);
  const found: DerivedName[] = [];
  for (const key of before.unique.filter((candidate) =>
    after.unique.some((kept) => kept.join() === candidate.join()),
  )) {
    found.push({
      kind: 'index',
      oldName: uniqueIndexName(oldTable, key.map(old)),
      newName: uniqueIndexName(table, key),
      fields: key,
    });
  }
  for (const [field, column] of Object.entries(before.columns)) {
    if (!column.references || after.columns[field]?.references !== column.references) continue;
    found.push({
      kind: 'constraint',
      oldName: foreignKeyName(oldTable, old(field)),
      newName: foreignKeyName(table, field),
      fields: [field],
    });
    found.push({
      kind: 'index',
      oldName: relationIndexName(oldTable, old(field)),
      newName: relationIndexName(table, field),
      fields: [field],
    });
  }
  if (before.search.length > 0 && before.search.join() === after.search.join())
    found.push({ kind: 'index', oldName: searchIndexName(oldTable), newName: searchIndexName(table), fields: [] });
  if (before.sort && before.sort === after.sort)
    found.push({
      kind: 'index',
      oldName: sortIndexName(oldTable, old(before.sort)),
      newName: sortIndexName(table, before.sort),
      fields: [before.sort],
    });
  return found.filter(({ oldName, newName }) => oldName !== newName);
}

function renameStatement(table: string) {
  return ({ kind, oldName, newName }: DerivedName): string =>
    kind === 'index'
      ? `ALTER INDEX ${q(oldName)} RENAME TO ${q(newName)};`
      : `ALTER TABLE ${q(table)} RENAME CONSTRAINT ${q(oldName)} TO ${q(newName)};`;
}
