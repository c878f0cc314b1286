/**
 * The data shape of the manifest: what its tables hold and what the rows must fit (columns with their SQL type,
 * required fields, allowed values, relations, unique keys, the search and sort indexes) and the modules whose grants
 * role_permissions holds. Every manifest migration commits the shape it leaves the database in
 * (server/migrations/manifest/NNNN_name.shape.json); the CLI writes the next migration from the difference with the
 * manifest's shape, `check` and the server's start compare the two.
 */
import type { AreaModel, FieldModel } from './description.ts';

export interface DataShape {
  /** By table name. */
  tables: Record<string, TableShape>;
  /** Every module key (areas and resources) with the actions it offers, sorted. */
  modules: Record<string, string[]>;
}

export interface TableShape {
  /** The module (resource key) the table stores. */
  module: string;
  /** The manifest's fields by name, in the manifest's order (system columns are not listed: every table has them). */
  columns: Record<string, ColumnShape>;
  /** Each unique key's columns, in key order. */
  unique: string[][];
  /** The columns the list search matches (a trigram index covers them); empty without a search. */
  search: string[];
  /** The column of the list's default sort, indexed with id; null when it is id. */
  sort: string | null;
}

export interface ColumnShape {
  type: string;
  required: boolean;
  /** The values allowed (JSON Schema `enum`), when limited. */
  enum?: (string | number)[];
  /** The table whose id it holds (a relation). */
  references?: string;
}

/** The data shape of a description. */
export function dataShape(areas: readonly AreaModel[]): DataShape {
  const tables: Record<string, TableShape> = {};
  const modules: Record<string, string[]> = {};
  for (const area of areas) {
    modules[area.key] = ['view'];
    for (const resource of area.resources) {
      modules[resource.key] = [...resource.actions];
      const entity = resource.entity;
      if (!entity) continue;
      const sort = resource.list?.sort.field ?? 'id';
      tables[entity.table] = {
        module: resource.key,
        columns: Object.fromEntries(
          entity.fields.filter((field) => !field.system).map((field) => [field.name, columnShape(field)]),
        ),
        unique: entity.unique.map((key) => [...key.fields]),
        search: [...(resource.list?.search ?? [])],
        sort: sort === 'id' ? null : sort,
      };
    }
  }
  return { tables: sortedKeys(tables), modules: sortedKeys(modules) };
}

function columnShape(field: FieldModel): ColumnShape {
  return {
    type: field.sqlType,
    required: field.required,
    ...(field.enum ? { enum: [...field.enum] } : {}),
    ...(field.relation ? { references: field.relation.table } : {}),
  };
}

/** A shape as its snapshot file holds it: JSON with a column, a key list or a module per line, so a diff reads well. */
export function shapeText(shape: DataShape): string {
  // Indented JSON has line breaks only between tokens: folded to spaces, a value reads on one line.
  const line = (value: unknown) => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');
  const entries = (record: Record<string, unknown>, indent: string, text: (value: unknown) => string) =>
    Object.entries(record)
      .map(([key, value]) => `${indent}${JSON.stringify(key)}: ${text(value)}`)
      .join(',\n');
  const table = (value: unknown) => {
    const { module, columns, ...rest } = value as TableShape;
    return `{\n      "module": ${line(module)},\n      "columns": {\n${entries(columns, '        ', line)}\n      },\n${entries(rest, '      ', line)}\n    }`;
  };
  return `{\n  "tables": {\n${entries(shape.tables, '    ', table)}\n  },\n  "modules": {\n${entries(shape.modules, '    ', line)}\n  }\n}\n`;
}

/** The differences between two shapes in words, `from` the committed one `to` the manifest's; none when they match. */
export function shapeDifferences(from: DataShape, to: DataShape): string[] {
  const found: string[] = [];
  for (const table of Object.keys(from.tables)) if (!to.tables[table]) found.push(`table ${table} is gone`);
  for (const [table, next] of Object.entries(to.tables)) {
    const previous = from.tables[table];
    if (!previous) {
      found.push(`table ${table} is new`);
      continue;
    }
    if (previous.module !== next.module)
      found.push(`table ${table} now stores module ${next.module} (was ${previous.module})`);
    for (const column of Object.keys(previous.columns))
      if (!next.columns[column]) found.push(`${table}.${column} is gone`);
    for (const [column, shape] of Object.entries(next.columns)) {
      const before = previous.columns[column];
      if (!before) found.push(`${table}.${column} is new (${shape.type}${shape.required ? ', required' : ''})`);
      else found.push(...columnDifferences(`${table}.${column}`, before, shape));
    }
    const keys = (shape: TableShape) => shape.unique.map((key) => key.join(', '));
    for (const key of keys(previous))
      if (!keys(next).includes(key)) found.push(`${table}: unique key (${key}) is gone`);
    for (const key of keys(next)) if (!keys(previous).includes(key)) found.push(`${table}: unique key (${key}) is new`);
    if (previous.search.join() !== next.search.join())
      found.push(`${table}: the search covers (${next.search.join(', ')}), was (${previous.search.join(', ')})`);
    if (previous.sort !== next.sort)
      found.push(`${table}: the list sorts by ${next.sort ?? 'id'}, was ${previous.sort ?? 'id'}`);
  }
  for (const module of Object.keys(from.modules)) if (!to.modules[module]) found.push(`module ${module} is gone`);
  for (const [module, actions] of Object.entries(to.modules)) {
    const before = from.modules[module];
    if (!before) {
      found.push(`module ${module} is new`);
      continue;
    }
    const gone = before.filter((action) => !actions.includes(action));
    const added = actions.filter((action) => !before.includes(action));
    if (gone.length) found.push(`module ${module} no longer offers ${gone.join(', ')}`);
    if (added.length) found.push(`module ${module} now offers ${added.join(', ')}`);
  }
  return found;
}

function columnDifferences(name: string, before: ColumnShape, after: ColumnShape): string[] {
  const found: string[] = [];
  if (before.type !== after.type) found.push(`${name} is ${after.type}, was ${before.type}`);
  if (before.required !== after.required)
    found.push(`${name} is ${after.required ? 'now required' : 'no longer required'}`);
  if (JSON.stringify(before.enum ?? null) !== JSON.stringify(after.enum ?? null)) {
    found.push(
      `${name} allows ${after.enum ? after.enum.join(', ') : 'any value'}, was ${before.enum ? before.enum.join(', ') : 'any value'}`,
    );
  }
  if (before.references !== after.references) {
    found.push(
      `${name} ${after.references ? `refers to ${after.references}` : 'refers to no table'}, was ${before.references ?? 'no table'}`,
    );
  }
  return found;
}

function sortedKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
