/**
 * What the developer says about a change the shapes alone cannot tell: a rename (`--rename`), a removal whose values
 * are kept (`--removed`, the default when nothing new could be the same thing) or dropped (`--drop`), and the value
 * the rows already stored get in a field that becomes required without a default (`--backfill`).
 */
export interface MigrationDecisions {
  /** Old table → new table. */
  tableRenames: Map<string, string>;
  /** `oldTable.oldField` → new field name. */
  fieldRenames: Map<string, string>;
  /** Old module key → new module key: its grants follow. */
  moduleRenames: Map<string, string>;
  /** Tables (`vouchers`), fields (`vouchers.description`) and modules (`VOUCHER`) removed, their values kept. */
  removed: Set<string>;
  /** As `removed`, their values dropped. */
  dropped: Set<string>;
  /** `table.field` (new names) → the value of the rows already stored. */
  backfill: Map<string, unknown>;
}

/** The flags as the CLI collects them, each repeatable. */
export interface DecisionFlags {
  rename: string[];
  removed: string[];
  drop: string[];
  backfill: string[];
}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const TABLE = '[a-z_][a-z0-9_]*';
const MODULE = '[A-Z][A-Z0-9_]*';
const FIELD_RENAME = new RegExp(`^(${TABLE})\\.(${NAME})=(${NAME})$`);
const TABLE_RENAME = new RegExp(`^(${TABLE})=(${TABLE})$`);
const MODULE_RENAME = new RegExp(`^(${MODULE})=(${MODULE})$`);
const TARGET = new RegExp(`^(${TABLE}(\\.${NAME})?|${MODULE})$`);
const BACKFILL = new RegExp(`^(${TABLE}\\.${NAME})=(.*)$`, 's');

export function noDecisions(): MigrationDecisions {
  return {
    tableRenames: new Map(),
    fieldRenames: new Map(),
    moduleRenames: new Map(),
    removed: new Set(),
    dropped: new Set(),
    backfill: new Map(),
  };
}

/** The decisions the flags state, or what is wrong with each flag that cannot be read. */
export function parseDecisions(flags: DecisionFlags): { decisions: MigrationDecisions; errors: string[] } {
  const decisions = noDecisions();
  const errors: string[] = [];
  for (const rename of flags.rename) {
    const field = FIELD_RENAME.exec(rename);
    const table = TABLE_RENAME.exec(rename);
    const module = MODULE_RENAME.exec(rename);
    if (field) decisions.fieldRenames.set(`${field[1]}.${field[2]}`, field[3]!);
    else if (table) decisions.tableRenames.set(table[1]!, table[2]!);
    else if (module) decisions.moduleRenames.set(module[1]!, module[2]!);
    else errors.push(`--rename ${rename}: expected table.field=new_field, table=new_table or MODULE=NEW_MODULE`);
  }
  for (const [flag, values, into] of [
    ['--removed', flags.removed, decisions.removed],
    ['--drop', flags.drop, decisions.dropped],
  ] as const) {
    for (const value of values) {
      if (TARGET.test(value)) into.add(value);
      else errors.push(`${flag} ${value}: expected table, table.field or MODULE`);
    }
  }
  for (const backfill of flags.backfill) {
    const match = BACKFILL.exec(backfill);
    if (match) decisions.backfill.set(match[1]!, jsonOrText(match[2]!));
    else errors.push(`--backfill ${backfill}: expected table.field=value`);
  }
  return { decisions, errors };
}

/** `3` is a number, `true` a boolean, `"3"` or `abc` text: what a developer means on a command line. */
export function jsonOrText(value: string): unknown {
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}
