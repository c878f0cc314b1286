import type { DataShape, TableShape } from '../../contract/dataShape.ts';
import type { MigrationDecisions } from './decisions.ts';

/**
 * The names a migration's renames give: a table's and a field's old and new names both ways, and the shape the
 * previous migration left, with the renames applied, so that what remains to compare with the manifest is what
 * changed beyond the names.
 */
export class Renames {
  constructor(private readonly decisions: MigrationDecisions) {}

  newTable(oldTable: string): string {
    return this.decisions.tableRenames.get(oldTable) ?? oldTable;
  }

  oldTable(newTable: string): string {
    return [...this.decisions.tableRenames].find(([, to]) => to === newTable)?.[0] ?? newTable;
  }

  newField(oldTable: string, oldField: string): string {
    return this.decisions.fieldRenames.get(`${oldTable}.${oldField}`) ?? oldField;
  }

  /** The field's name before the migration, in the table's new name. */
  oldField(newTable: string, newField: string): string {
    const oldTable = this.oldTable(newTable);
    const found = [...this.decisions.fieldRenames].find(
      ([key, to]) => to === newField && key.startsWith(`${oldTable}.`),
    );
    return found ? found[0].slice(oldTable.length + 1) : newField;
  }

  /** The fields of a table renamed in this migration: [old, new] by the table's new name. */
  fieldRenamesOf(newTable: string): [string, string][] {
    const oldTable = this.oldTable(newTable);
    return [...this.decisions.fieldRenames]
      .filter(([key]) => key.startsWith(`${oldTable}.`))
      .map(([key, to]) => [key.slice(oldTable.length + 1), to]);
  }

  newModule(oldModule: string): string {
    return this.decisions.moduleRenames.get(oldModule) ?? oldModule;
  }

  /** Whether the developer said to drop the values of a removed table, field (by either table name) or module. */
  dropped(table: string, field?: string): boolean {
    if (field === undefined) return this.decisions.dropped.has(table);
    return (
      this.decisions.dropped.has(`${table}.${field}`) || this.decisions.dropped.has(`${this.oldTable(table)}.${field}`)
    );
  }

  /** `previous` as it reads once the renames are made: tables, fields and modules under their new names. */
  applyTo(previous: DataShape): DataShape {
    const tables: Record<string, TableShape> = {};
    for (const [oldTable, shape] of Object.entries(previous.tables)) {
      const field = (name: string) => this.newField(oldTable, name);
      tables[this.newTable(oldTable)] = {
        module: this.newModule(shape.module),
        columns: Object.fromEntries(
          Object.entries(shape.columns).map(([name, column]) => [
            field(name),
            column.references ? { ...column, references: this.newTable(column.references) } : column,
          ]),
        ),
        unique: shape.unique.map((key) => key.map(field)),
        search: shape.search.map(field),
        sort: shape.sort === null ? null : field(shape.sort),
      };
    }
    const modules = Object.fromEntries(
      Object.entries(previous.modules).map(([module, actions]) => [this.newModule(module), actions]),
    );
    return { tables, modules };
  }
}
