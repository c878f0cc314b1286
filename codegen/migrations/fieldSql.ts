import type { TableShape } from '../../contract/dataShape.ts';
import type { MigrationStep } from '../../contract/migrationSteps.ts';
import { foreignKeyName, removedValuesTableName } from '../sqlNames.ts';
import type { Renames } from './renamedShape.ts';
import { conversion, refuseRows, sqlLiteral } from './sqlValues.ts';
import { quoted as q } from '../sqlNames.ts';
import { addColumn, countRows, createRelationIndex } from './tableSql.ts';

/** Type changes, each with its conversion, refused naming the rows whose values do not convert. */
export function conversions(table: string, before: TableShape, after: TableShape, names: Renames): MigrationStep[] {
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
        rows: countRows(oldTable, `${q(oldField)} IS NOT NULL`),
        sql: `${guard}ALTER TABLE ${q(oldTable)} ALTER COLUMN ${q(oldField)} TYPE ${column.type} USING ${using};`,
      };
    });
}

/** Fields gone from a table that stays: their values copied, with the row's id, to a table of their own unless dropped. */
export function removedFields(
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
      rows: countRows(table, gone.map((field) => `${q(field)} IS NOT NULL`).join(' OR ')),
      sql: statements.join('\n'),
    },
  ];
}

/** New fields (the rows already stored get the backfill of a required one), required fields filled, allowed values checked. */
export function newFieldsAndValues(
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
        rows: literal ? countRows(table) : null,
        sql: addColumn(table, field, column, literal),
      });
      continue;
    }
    if (literal) {
      steps.push({
        title: `fill ${table}.${field} where it is empty, now that it is required: ${literal}`,
        rows: countRows(table, `${q(field)} IS NULL`),
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
        rows: countRows(table, `${q(field)} IS NOT NULL`),
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
        rows: countRows(table, `${q(field)} IS NOT NULL`),
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
