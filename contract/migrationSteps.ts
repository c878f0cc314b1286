/**
 * A manifest migration's file, as the CLI writes it and the server reads it: comment lines saying what it does, then
 * its steps. A step starts with `-- step: <what it does>`, may give on the next line `-- rows: <a query counting the
 * rows it affects>` (which `plan` runs just before the step), and holds the SQL up to the next step. A reviewer may
 * edit a step's SQL (a backfill, a conversion) before the migration is committed; once applied it must not change.
 */
export interface MigrationStep {
  title: string;
  /** SELECT count(*) ... of the rows the step changes, in the state just before it; null when there is nothing to count. */
  rows: string | null;
  sql: string;
}

const STEP = '-- step: ';
const ROWS = '-- rows: ';

export function migrationText(header: readonly string[], steps: readonly MigrationStep[]): string {
  const lines = header.map((line) => `-- ${line}`.trimEnd());
  for (const step of steps) {
    lines.push('', `${STEP}${step.title}`);
    if (step.rows) lines.push(`${ROWS}${step.rows}`);
    lines.push(step.sql);
  }
  return `${lines.join('\n')}\n`;
}

/** The steps of a migration's text; SQL written before the first step (by hand) is a step of its own. */
export function migrationSteps(text: string): MigrationStep[] {
  const steps: MigrationStep[] = [];
  let current: MigrationStep = { title: 'the statements before the first step', rows: null, sql: '' };
  const close = () => {
    const sql = current.sql.trim();
    if (sql && !/^(--[^\n]*(\n|$)|\s)*$/.test(sql)) steps.push({ ...current, sql });
  };
  for (const line of text.split('\n')) {
    if (line.startsWith(STEP)) {
      close();
      current = { title: line.slice(STEP.length).trim(), rows: null, sql: '' };
    } else if (line.startsWith(ROWS) && current.sql.trim() === '' && current.rows === null) {
      current.rows = line.slice(ROWS.length).trim();
    } else {
      current.sql += `${line}\n`;
    }
  }
  close();
  return steps;
}
