import type { DataShape } from '../../contract/dataShape.ts';
import { jsonOrText, type MigrationDecisions } from './decisions.ts';

/** Asks the developer a question on the terminal and returns the answer; absent without a terminal. */
export type Ask = (question: string) => Promise<string>;

export interface SettledDecisions {
  decisions: MigrationDecisions;
  /** What is still undecided or wrong, each naming the flag that decides it; the migration is written only without. */
  refusals: string[];
}

/**
 * Completes the developer's decisions for a change from `previous` to `next`. Something gone while something new
 * appeared beside it (a table among tables, a field in its table, a module) may be a rename: it is never guessed. On
 * a terminal the developer is asked, as Django's "Did you rename ...?"; otherwise the change is refused until a flag
 * says which. A field that becomes required needs a value for the rows already stored: the manifest's `default`,
 * `--backfill`, or an answer.
 */
export async function settleDecisions(
  previous: DataShape,
  next: DataShape,
  given: MigrationDecisions,
  defaults: ReadonlyMap<string, unknown>,
  ask: Ask | null,
): Promise<SettledDecisions> {
  const decisions: MigrationDecisions = {
    tableRenames: new Map(given.tableRenames),
    fieldRenames: new Map(),
    moduleRenames: new Map(given.moduleRenames),
    removed: new Set(given.removed),
    dropped: new Set(given.dropped),
    backfill: new Map(given.backfill),
  };
  const refusals: string[] = [];
  const decided = (name: string) => decisions.removed.has(name) || decisions.dropped.has(name);
  /** A table or module gone while others are new: renamed to one of them, removed, or refused until a flag says. */
  const settleGone = async (
    kind: 'table' | 'module',
    gone: string,
    candidates: readonly string[],
    renames: Map<string, string>,
    values: string,
  ) => {
    if (candidates.length === 0) return;
    const described = (name: string) => `${kind} ${name}`;
    const renamedTo = await askRename(
      ask,
      described(gone),
      candidates.map((candidate) => [candidate, described(candidate)]),
    );
    if (renamedTo === undefined)
      refusals.push(renameRefusal(described(gone), candidates.map(described), gone, candidates[0]!, values));
    else if (renamedTo) renames.set(gone, renamedTo);
    else decisions.removed.add(gone);
  };

  // Tables.
  for (const [from, to] of decisions.tableRenames) {
    if (!previous.tables[from] || next.tables[from])
      refusals.push(`--rename ${from}=${to}: the manifest still has table ${from}, or the last migration has none`);
    else if (!next.tables[to] || previous.tables[to])
      refusals.push(`--rename ${from}=${to}: table ${to} is not new in the manifest`);
  }
  const newTables = () =>
    Object.keys(next.tables).filter(
      (table) => !previous.tables[table] && ![...decisions.tableRenames.values()].includes(table),
    );
  for (const table of Object.keys(previous.tables).filter(
    (name) => !next.tables[name] && !decisions.tableRenames.has(name) && !decided(name),
  ))
    await settleGone('table', table, newTables(), decisions.tableRenames, 'its rows');
  const oldTableOf = (table: string) => [...decisions.tableRenames].find(([, to]) => to === table)?.[0] ?? table;

  // Fields, in every table that stays (renamed or not). A field rename may name the table by its old or new name.
  /** New fields that may be renamed ones: whether they need a backfill waits for the answer. */
  const undecided = new Set<string>();
  for (const [key, to] of given.fieldRenames) {
    const [table, field] = key.split('.') as [string, string];
    decisions.fieldRenames.set(
      `${decisions.tableRenames.has(table) || !next.tables[table] ? table : oldTableOf(table)}.${field}`,
      to,
    );
  }
  for (const [table, shape] of Object.entries(next.tables)) {
    const oldTable = oldTableOf(table);
    const before = previous.tables[oldTable];
    if (!before) continue;
    const renames = [...decisions.fieldRenames]
      .filter(([key]) => key.startsWith(`${oldTable}.`))
      .map(([key, to]) => [key.slice(oldTable.length + 1), to] as const);
    for (const [from, to] of renames) {
      if (!before.columns[from] || shape.columns[from])
        refusals.push(
          `--rename ${oldTable}.${from}=${to}: the manifest still has ${table}.${from}, or the last migration has no ${oldTable}.${from}`,
        );
      else if (!shape.columns[to] || before.columns[to])
        refusals.push(`--rename ${oldTable}.${from}=${to}: ${table}.${to} is not new in the manifest`);
    }
    const newFields = () =>
      Object.keys(shape.columns).filter((field) => !before.columns[field] && !renames.some(([, to]) => to === field));
    for (const field of Object.keys(before.columns).filter(
      (name) => !shape.columns[name] && !renames.some(([from]) => from === name),
    )) {
      if (decided(`${oldTable}.${field}`) || decided(`${table}.${field}`)) continue;
      const candidates = newFields();
      if (candidates.length === 0) continue;
      const described = (name: string, type: string) => `${table}.${name} (${type})`;
      const renamedTo = await askRename(
        ask,
        described(field, before.columns[field]!.type),
        candidates.map((candidate) => [candidate, described(candidate, shape.columns[candidate]!.type)]),
      );
      if (renamedTo === undefined) {
        refusals.push(
          renameRefusal(
            `${table}.${field}`,
            candidates.map((candidate) => `${table}.${candidate}`),
            `${oldTable}.${field}`,
            candidates[0]!,
            'its values',
          ),
        );
        for (const candidate of candidates) undecided.add(`${table}.${candidate}`);
      } else if (renamedTo) {
        decisions.fieldRenames.set(`${oldTable}.${field}`, renamedTo);
        renames.push([field, renamedTo]);
      } else decisions.removed.add(`${table}.${field}`);
    }
  }

  for (const key of decisions.fieldRenames.keys()) {
    const table = key.split('.')[0]!;
    if (!previous.tables[table] || !next.tables[decisions.tableRenames.get(table) ?? table])
      refusals.push(
        `--rename ${key}=${decisions.fieldRenames.get(key)}: no table ${table} is in both the last migration and the manifest`,
      );
  }

  // Modules: a table that stays while its module key changed carries its grants along; any other module gone while
  // another appeared may be a rename too.
  for (const [table, shape] of Object.entries(next.tables)) {
    const before = previous.tables[oldTableOf(table)];
    if (before && before.module !== shape.module && !decisions.moduleRenames.has(before.module))
      decisions.moduleRenames.set(before.module, shape.module);
  }
  for (const [from, to] of given.moduleRenames) {
    if (!previous.modules[from] || next.modules[from] || !next.modules[to] || previous.modules[to])
      refusals.push(`--rename ${from}=${to}: module ${from} must be gone from the manifest and ${to} new in it`);
  }
  const removedTableModules = new Set(
    Object.entries(previous.tables)
      .filter(([table]) => !next.tables[table] && !decisions.tableRenames.has(table))
      .map(([, shape]) => shape.module),
  );
  const newModules = () =>
    Object.keys(next.modules).filter(
      (module) => !previous.modules[module] && ![...decisions.moduleRenames.values()].includes(module),
    );
  for (const module of Object.keys(previous.modules).filter(
    (key) => !next.modules[key] && !decisions.moduleRenames.has(key) && !removedTableModules.has(key) && !decided(key),
  ))
    await settleGone('module', module, newModules(), decisions.moduleRenames, 'its grants');

  // What --removed and --drop name must be gone.
  for (const [flag, names] of [
    ['--removed', given.removed],
    ['--drop', given.dropped],
  ] as const) {
    for (const name of names)
      if (!isGone(previous, next, decisions, name)) refusals.push(`${flag} ${name}: it is not gone from the manifest`);
  }

  // Fields that become required: the rows already stored need a value.
  const needing = new Set<string>();
  for (const [table, shape] of Object.entries(next.tables)) {
    const oldTable = oldTableOf(table);
    const before = previous.tables[oldTable];
    if (!before) continue;
    for (const [field, column] of Object.entries(shape.columns)) {
      const oldField =
        [...decisions.fieldRenames]
          .find(([key, to]) => key.startsWith(`${oldTable}.`) && to === field)?.[0]
          .slice(oldTable.length + 1) ?? field;
      const was = before.columns[oldField];
      if (!column.required || was?.required) continue;
      const key = `${table}.${field}`;
      needing.add(key);
      if (undecided.has(key)) continue;
      if (decisions.backfill.has(key) || defaults.has(key)) continue;
      const what = `${key} ${was ? 'is now required' : 'is new and required'}, and the manifest gives it no default`;
      if (ask) {
        const answer = (await ask(`${what}. The value of the rows already stored (JSON, or text): `)).trim();
        if (answer) {
          decisions.backfill.set(key, jsonOrText(answer));
          continue;
        }
      }
      refusals.push(
        `${what}: the rows already stored need a value. Give the field a "default" in the manifest, or say --backfill ${key}=<value>.`,
      );
    }
  }
  for (const key of given.backfill.keys())
    if (!needing.has(key)) refusals.push(`--backfill ${key}: ${key} does not become required`);
  return { decisions, refusals };
}

function isGone(previous: DataShape, next: DataShape, decisions: MigrationDecisions, name: string): boolean {
  if (/^[A-Z]/.test(name))
    return Boolean(previous.modules[name]) && !next.modules[name] && !decisions.moduleRenames.has(name);
  const [table, field] = name.split('.') as [string, string | undefined];
  if (field === undefined)
    return Boolean(previous.tables[table]) && !next.tables[table] && !decisions.tableRenames.has(table);
  const newTable = decisions.tableRenames.get(table) ?? table;
  const oldTable = [...decisions.tableRenames].find(([, to]) => to === table)?.[0] ?? table;
  return (
    Boolean(previous.tables[oldTable]?.columns[field]) &&
    Boolean(next.tables[newTable]) &&
    !next.tables[newTable]!.columns[field] &&
    !decisions.fieldRenames.has(`${oldTable}.${field}`)
  );
}

/** The candidate the developer says `gone` was renamed to; null when none; undefined when nobody can be asked. */
async function askRename(
  ask: Ask | null,
  gone: string,
  candidates: readonly (readonly [string, string])[],
): Promise<string | null | undefined> {
  if (!ask) return undefined;
  for (const [name, described] of candidates) {
    if (/^y(es)?$/i.test((await ask(`Did you rename ${gone} to ${described}? [y/N] `)).trim())) return name;
  }
  return null;
}

function renameRefusal(
  gone: string,
  candidates: readonly string[],
  name: string,
  firstCandidate: string,
  values: string,
): string {
  const module = /^[A-Z]/.test(name);
  const flag = (text: string) => `  ${text.padEnd(48)} `;
  return [
    `${gone} is gone and ${candidates.join(', ')} ${candidates.length === 1 ? 'is' : 'are'} new: was it renamed? Say which, and run again:`,
    `${flag(`--rename ${name}=${firstCandidate}`)}${values} follow the new name`,
    `${flag(`--removed ${name}`)}removed: ${module ? `${values} are deleted` : `${values} are kept in a table of their own`}`,
    ...(module ? [] : [`${flag(`--drop ${name}`)}removed, and ${values} dropped`]),
  ].join('\n');
}
