/**
 * The lines of a benchmark run on each database, each held to its budget, and the table that ends the run with
 * each line's verdict.
 */
import { POSTGRES_URL, postgresReachable, type LoadFigures } from './load.ts';
import type { DatabaseKind } from './serverProcess.ts';

export interface Budget {
  p99Ms: number;
  minRps?: number;
}

export interface ResultLine extends LoadFigures {
  database: DatabaseKind;
  scenario: string;
  /** Null: a line printed for what it shows, held to nothing but answering without errors. */
  budget: Budget | null;
}

/** Each database's lines in turn; PostgreSQL's are skipped, with a warning, when none answers at POSTGRES_URL. */
export async function linesOnEachDatabase(
  databases: readonly DatabaseKind[],
  bench: (kind: DatabaseKind) => Promise<ResultLine[]>,
): Promise<ResultLine[]> {
  const lines: ResultLine[] = [];
  for (const kind of databases) {
    if (kind === 'postgres' && !(await postgresReachable(POSTGRES_URL))) {
      console.warn(`PostgreSQL at ${POSTGRES_URL} is unreachable: its lines are SKIPPED.`);
      continue;
    }
    lines.push(...(await bench(kind)));
  }
  return lines;
}

/** Load for `warmupSeconds`, not counted (the server's JIT, pools and caches reach their steady state), then the measured run. */
export async function measureLine(
  line: Omit<ResultLine, keyof LoadFigures>,
  load: (seconds: number) => Promise<LoadFigures>,
  { warmupSeconds, seconds }: { warmupSeconds: number; seconds: number },
): Promise<ResultLine> {
  if (warmupSeconds > 0) await load(warmupSeconds);
  const measured = { ...line, ...(await load(seconds)) };
  console.info(
    `${line.database} ${line.scenario}: ${measured.rps.toFixed(0)} req/s, p50 ${measured.p50} ms, p99 ${measured.p99} ms, errors ${measured.errors}`,
  );
  return measured;
}

/** Prints the table of `lines` with their verdicts; whether every line passed. */
export function printResults(lines: readonly ResultLine[]): boolean {
  const rows = lines.map((line) => ({ line, budget: budgetText(line.budget), pass: passes(line) }));
  const scenarioWidth = Math.max('scenario'.length, ...lines.map((line) => line.scenario.length));
  const budgetWidth = Math.max('budget'.length, ...rows.map((row) => row.budget.length));
  console.info(
    `\n${'database'.padEnd(9)} ${'scenario'.padEnd(scenarioWidth)}  req/s   p50 ms   p99 ms  errors  ${'budget'.padEnd(budgetWidth)}  verdict`,
  );
  for (const { line, budget, pass } of rows) {
    const verdict = line.budget === null ? (pass ? '-' : 'ERRORS') : pass ? 'PASS' : 'FAIL';
    console.info(
      `${line.database.padEnd(9)} ${line.scenario.padEnd(scenarioWidth)} ${line.rps.toFixed(0).padStart(6)} ${line.p50.toFixed(1).padStart(8)} ${line.p99.toFixed(1).padStart(8)} ${String(line.errors).padStart(7)}  ${budget.padEnd(budgetWidth)}  ${verdict}`,
    );
  }
  return rows.every((row) => row.pass);
}

function passes({ errors, p99, rps, budget }: ResultLine): boolean {
  return errors === 0 && (budget === null || (p99 < budget.p99Ms && rps >= (budget.minRps ?? 0)));
}

function budgetText(budget: Budget | null): string {
  if (budget === null) return 'none (information)';
  return `p99 < ${budget.p99Ms} ms${budget.minRps ? `, >= ${budget.minRps} req/s` : ''}`;
}
