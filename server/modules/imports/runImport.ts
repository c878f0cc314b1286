import type { Database, Queryable } from '../../db/database.ts';
import { validationError } from '../../http/errors.ts';
import type { ProgressReporter, ProgressResult } from '../../http/progressStream.ts';
import { recordAudit } from '../audit/record.ts';
import type { SessionUser } from '../auth/session.ts';
import type { WriteContext } from '../resources/behaviours.ts';
import type { ResourceContext } from '../resources/resourceContext.ts';
import { applyBatch } from './applyPlan.ts';
import { importableFields, matchKey } from './importFields.ts';
import { shownRow } from './importLimits.ts';
import { planRows, type ColumnFields, type Outcome, type RowPlan } from './plan.ts';
import type { StoredImport } from './store.ts';

/** Rows of each outcome a dry run shows (all its counts are exact); the rejected-rows download has every refused row. */
const SHOWN: Record<Outcome, number> = { error: 1000, create: 100, update: 100, unchanged: 20 };

export type Mapping = Record<string, string | null>;
type Counts = Record<Outcome, number>;

/** Which field each column fills; a 400 on `mapping` when it names what is not a heading or a field, or leaves the key out. */
export function mappedColumns(resourceContext: ResourceContext, stored: StoredImport, mapping: Mapping): ColumnFields {
  const fields = importableFields(resourceContext.resource);
  const used = new Set<string>();
  for (const [heading, name] of Object.entries(mapping)) {
    if (!stored.headings.includes(heading)) throw validationError({ mapping: `The file has no column "${heading}".` });
    if (name === null) continue;
    const field = fields.find((candidate) => candidate.name === name);
    if (!field) throw validationError({ mapping: `"${name}" is not a field a file may fill.` });
    if (used.has(name)) throw validationError({ mapping: `Two columns fill ${field.title}; choose one.` });
    used.add(name);
  }
  const missingKey = matchKey(resourceContext.resource).filter((name) => !used.has(name));
  if (missingKey.length > 0) {
    const titles = missingKey.map((name) => fields.find((field) => field.name === name)?.title ?? name).join(' and ');
    throw validationError({ mapping: `Map a column to ${titles}: rows are matched to records on it.` });
  }
  return stored.headings.map((heading) => fields.find((field) => field.name === mapping[heading]) ?? null);
}

function tally(counts: Counts, plans: readonly RowPlan[]): void {
  for (const plan of plans) counts[plan.outcome] += 1;
}

/**
 * The dry run: every row's outcome counted, and the rows to show, each with its cells (cut to a readable length) and
 * the message on each refused one. It changes no record, but what it tells (which keys exist) is recorded: an entry
 * names who ran it on which file and what it found.
 */
export async function dryRun(
  db: Database,
  resourceContext: ResourceContext,
  stored: StoredImport,
  columns: ColumnFields,
  caller: Pick<WriteContext, 'user' | 'actor'>,
  progress: ProgressReporter,
): Promise<ProgressResult> {
  const counts: Counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  const shown: Array<Record<string, unknown>> = [];
  const taken: Counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  progress.start(stored.rows.length);
  for await (const plans of planRows(db, resourceContext, stored, columns, caller.user)) {
    tally(counts, plans);
    for (const plan of plans) {
      if (taken[plan.outcome] >= SHOWN[plan.outcome]) continue;
      taken[plan.outcome] += 1;
      shown.push({
        line: plan.line,
        outcome: plan.outcome,
        ...shownRow(stored.rows[plan.line - 2]!, plan.errors),
        changed: plan.changed,
      });
    }
    progress.report(counts.create + counts.update + counts.unchanged + counts.error);
  }
  shown.sort((a, b) => (a.line as number) - (b.line as number));
  const details = { file_name: stored.fileName, rows: stored.rows.length, ...counts };
  await db.transaction((tx) =>
    recordAudit(tx, caller.actor, { module: resourceContext.resource.key, action: 'import_dry_run', details }),
  );
  return { data: { counts, rows: shown }, message: summary(counts, 'would be') };
}

/** The apply: the same plan, worked out again in the caller's one transaction and written batch by batch; all of it or none. */
export async function applyImport(
  context: WriteContext,
  resourceContext: ResourceContext,
  stored: StoredImport,
  columns: ColumnFields,
  progress: ProgressReporter,
): Promise<ProgressResult> {
  const counts: Counts = { create: 0, update: 0, unchanged: 0, error: 0 };
  progress.start(stored.rows.length);
  for await (const plans of planRows(context.tx, resourceContext, stored, columns, context.user)) {
    await applyBatch(context, resourceContext, plans);
    tally(counts, plans);
    progress.report(counts.create + counts.update + counts.unchanged + counts.error);
  }
  await recordAudit(context.tx, context.actor, {
    module: resourceContext.resource.key,
    action: 'import',
    details: { file_name: stored.fileName, ...counts },
  });
  return { data: { counts }, message: summary(counts, 'were') };
}

/** The refused rows with their reasons, for the download. */
export async function* rejectedRows(
  db: Queryable,
  resourceContext: ResourceContext,
  stored: StoredImport,
  columns: ColumnFields,
  user: SessionUser | null,
): AsyncGenerator<{ cells: string[]; reason: string }> {
  const titles = new Map(resourceContext.resource.entity.fields.map((field) => [field.name, field.title]));
  for await (const plans of planRows(db, resourceContext, stored, columns, user)) {
    for (const plan of plans) {
      if (plan.outcome !== 'error') continue;
      const reason = Object.entries(plan.errors)
        .map(([name, message]) => (name === '_' ? message : `${titles.get(name) ?? name}: ${message}`))
        .join('; ');
      yield { cells: stored.rows[plan.line - 2]!, reason };
    }
  }
}

function summary(counts: Counts, verb: string): string {
  return `${counts.create} record(s) ${verb} created, ${counts.update} updated, ${counts.unchanged} unchanged; ${counts.error} row(s) refused.`;
}
