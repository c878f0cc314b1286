import type { Command } from 'commander';
import { parseDecisions, type DecisionFlags, type MigrationDecisions } from '../codegen/migrations/decisions.ts';

const repeatable = (value: string, previous: string[]) => [...previous, value];

/** The flags that decide what the manifest's data shape alone cannot tell (make-migration and plan take the same). */
export function withDecisionFlags(command: Command): Command {
  return command
    .option(
      '--rename <old=new>',
      'a rename: table.field=new_field, table=new_table or MODULE=NEW_MODULE (repeatable)',
      repeatable,
      [] as string[],
    )
    .option(
      '--removed <name>',
      'a table, table.field or MODULE that was removed, not renamed: its values are kept in a table of their own (repeatable)',
      repeatable,
      [] as string[],
    )
    .option('--drop <name>', 'as --removed, and its values are dropped (repeatable)', repeatable, [] as string[])
    .option(
      '--backfill <table.field=value>',
      'the value of the rows already stored in a field that becomes required without a default (JSON, or text; repeatable)',
      repeatable,
      [] as string[],
    );
}

export function decisionsOf(flags: DecisionFlags): { decisions: MigrationDecisions; errors: string[] } {
  return parseDecisions({ rename: flags.rename, removed: flags.removed, drop: flags.drop, backfill: flags.backfill });
}
