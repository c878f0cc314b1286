import { authoredProperty, type ProjectModel } from '../../contract/description.ts';
import { dataShape, shapeDifferences, shapeText, type DataShape } from '../../contract/dataShape.ts';
import type { ManifestMigration } from '../../contract/manifestMigrations.ts';
import { migrationText, type MigrationStep } from '../../contract/migrationSteps.ts';
import type { MigrationDecisions } from './decisions.ts';
import { migrationSteps } from './migrationSql.ts';
import { Renames } from './renamedShape.ts';
import { settleDecisions, type Ask } from './settleDecisions.ts';
import { unfitValue } from './sqlValues.ts';

export interface DraftOptions {
  /** Words for the file name (`voucher details` → `0002_voucher_details`); made from what changed when absent. */
  name?: string;
  decisions: MigrationDecisions;
  /** Asks on a terminal; null refuses what is undecided instead, naming the flag that decides it. */
  ask: Ask | null;
  /**
   * A migration of the developer's own while the data shape stays as it is (an index's storage, a fix of rows): its
   * steps are theirs to write. Refused while the shape has changed, whose steps must come first.
   */
  empty?: boolean;
}

export type Draft =
  | { kind: 'unchanged'; last: string }
  | { kind: 'refused'; refusals: string[] }
  | { kind: 'draft'; name: string; sql: string; shape: string; steps: MigrationStep[]; summary: string[] };

/**
 * The next migration of the manifest, in memory: the difference between the manifest's data shape and the shape the
 * last committed migration left, as numbered SQL steps, with the new shape to commit beside it. Writes nothing.
 */
export async function draftMigration(
  model: ProjectModel,
  committed: readonly ManifestMigration[],
  options: DraftOptions,
): Promise<Draft> {
  const next = dataShape(model.areas);
  const last = committed.at(-1) ?? null;
  const previous = last?.shape ?? null;
  const unchanged = last !== null && shapeDifferences(last.shape, next).length === 0;
  if (options.empty) return emptyDraft(last, next, unchanged, options.name);
  if (unchanged) return { kind: 'unchanged', last: last.name };
  const defaults = manifestDefaults(model);
  const settled = previous
    ? await settleDecisions(previous, next, options.decisions, defaults, options.ask)
    : { decisions: options.decisions, refusals: [] };
  if (settled.refusals.length > 0) return { kind: 'refused', refusals: settled.refusals };
  const { decisions } = settled;
  const values = new Map([...defaults, ...decisions.backfill]);
  const unfit = [...decisions.backfill].flatMap(([key, value]) => {
    const [table, field] = key.split('.') as [string, string];
    const why = unfitValue(value, next.tables[table]!.columns[field]!);
    return why ? [`--backfill ${key}=${JSON.stringify(value)}: ${why}.`] : [];
  });
  if (unfit.length > 0) return { kind: 'refused', refusals: unfit };

  const number = nextNumber(last);
  const summary = previous
    ? changeSummary(previous, next, decisions)
    : ['every table of the manifest: created, or adopted with its rows by a database made before migrations'];
  const name = `${number}_${fileWords(options.name ?? (previous ? summaryWords(previous, next, decisions) : 'initial'))}`;
  const steps = migrationSteps({ previous, next, decisions, defaults: values, number });
  const header = [
    `manifest/${name}: written by \`admin-codegen make-migration\` from the manifest's data shape,`,
    `from ${last ? `${last.name}.shape.json` : 'no tables'} to ${name}.shape.json:`,
    ...summary.map((line) => `  - ${line}`),
    ...(steps.length === 0 ? ['Nothing in the database changes; the shape records what the rows may now hold.'] : []),
    ...REVIEW,
  ];
  return { kind: 'draft', name, sql: migrationText(header, steps), shape: shapeText(next), steps, summary };
}

const REVIEW = [
  'Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.',
  'The server applies pending migrations at start in one transaction, and will not start once an applied one changed.',
];

const nextNumber = (last: ManifestMigration | null) => String(Number(last?.number ?? '0') + 1).padStart(4, '0');

/** A migration whose steps the developer writes, leaving the data shape the last one left. */
function emptyDraft(last: ManifestMigration | null, next: DataShape, unchanged: boolean, words?: string): Draft {
  if (!last)
    return { kind: 'refused', refusals: ['--empty: there is no migration yet; run make-migration without it.'] };
  if (!unchanged)
    return {
      kind: 'refused',
      refusals: [
        `--empty: the manifest's data shape changed since ${last.name}; run make-migration without --empty first.`,
      ],
    };
  if (!words) return { kind: 'refused', refusals: ['--empty needs --name saying what the migration does.'] };
  const name = `${nextNumber(last)}_${fileWords(words)}`;
  const header = [
    `manifest/${name}: written by \`admin-codegen make-migration --empty\`; the data shape stays ${last.name}'s.`,
    'Its steps are written by hand below, each as `-- step: <what it does>` and its SQL.',
    ...REVIEW,
  ];
  const summary = ['no change of the data shape: the steps are yours to write'];
  return { kind: 'draft', name, sql: migrationText(header, []), shape: shapeText(next), steps: [], summary };
}

/** `table.field` → the manifest's `default`, what the rows already stored get when a field becomes required. */
function manifestDefaults(model: ProjectModel): Map<string, unknown> {
  const defaults = new Map<string, unknown>();
  for (const resource of model.areas.flatMap((area) => area.resources)) {
    const entity = resource.entity;
    if (!entity) continue;
    for (const field of entity.fields) {
      const value = authoredProperty(entity, field.name)?.default;
      if (value !== undefined) defaults.set(`${entity.table}.${field.name}`, value);
    }
  }
  return defaults;
}

function changeSummary(previous: DataShape, next: DataShape, decisions: MigrationDecisions): string[] {
  const names = new Renames(decisions);
  const lines = [
    ...[...decisions.tableRenames].map(([from, to]) => `table ${from} renamed to ${to}`),
    ...[...decisions.fieldRenames].map(
      ([from, to]) => `${names.newTable(from.split('.')[0]!)}.${from.split('.')[1]} renamed to ${to}`,
    ),
    ...[...decisions.moduleRenames].map(([from, to]) => `module ${from} renamed to ${to}: its grants follow`),
  ];
  for (const line of shapeDifferences(names.applyTo(previous), next)) {
    const gone = /^(?:table )?([a-z0-9_]+)(?:\.([A-Za-z0-9_]+))? is gone$/.exec(line);
    lines.push(
      gone ? `${line}: ${names.dropped(gone[1]!, gone[2]) ? 'its values are dropped' : 'its values are kept'}` : line,
    );
  }
  return lines;
}

/** Words for the file name from what changed: the tables touched, or the modules. */
function summaryWords(previous: DataShape, next: DataShape, decisions: MigrationDecisions): string {
  const names = new Renames(decisions);
  const renamed = names.applyTo(previous);
  const tables = new Set([
    ...decisions.tableRenames.values(),
    ...[...decisions.fieldRenames.keys()].map((key) => names.newTable(key.split('.')[0]!)),
  ]);
  for (const table of new Set([...Object.keys(renamed.tables), ...Object.keys(next.tables)])) {
    if (JSON.stringify(renamed.tables[table]) !== JSON.stringify(next.tables[table])) tables.add(table);
  }
  return tables.size > 0 ? [...tables].sort().join(' ') : 'modules';
}

function fileWords(words: string): string {
  return (
    words
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 48)
      .replace(/_+$/, '') || 'change'
  );
}
