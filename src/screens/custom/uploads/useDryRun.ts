import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { TradeColumn } from '../../../../validation/tradeRows.ts';
import type * as DryRunCode from './dryRun.ts';
import type { DryRun, FirstRows } from './dryRun.ts';

type DryRunModule = typeof DryRunCode;

/** Where the dry run of the chosen file is: reading it, done (against the direction's columns), or not possible. */
export type DryRunState =
  | { kind: 'none' }
  | { kind: 'reading'; fileName: string }
  | { kind: 'waiting-for-columns'; fileName: string }
  | { kind: 'done'; fileName: string; result: DryRun; columns: readonly TradeColumn[] }
  | { kind: 'unavailable'; fileName: string };

export interface UseDryRunResult {
  state: DryRunState;
  /** What the dry run of a file says once it has read it: what the form holds the file to before sending it. */
  settled: (file: File) => Promise<DryRun | null>;
}

/** A file's first rows as read, with the code that checks them; neither when the browser could not read them. */
type Read = { file: File; module: DryRunModule; rows: FirstRows } | { file: File; module: null; rows: null };

async function readFile(file: File): Promise<Read> {
  try {
    const module = await import('./dryRun.ts');
    return { file, module, rows: await module.readFirstRows(file) };
  } catch {
    return { file, module: null, rows: null };
  }
}

/**
 * The dry run of a chosen file: its first rows read once per file (the code that reads them loaded then), checked
 * against the columns of the chosen trade direction whenever they change. A browser that cannot run it leaves the
 * checking to the server.
 */
export function useDryRun(file: File | null, columns: readonly TradeColumn[] | undefined): UseDryRunResult {
  const [read, setRead] = useState<Read | null>(null);
  const reading = useRef<Promise<Read> | null>(null);
  const columnsNow = useRef(columns);
  columnsNow.current = columns;
  useEffect(() => {
    if (!file) return;
    let current = true;
    const started = readFile(file);
    reading.current = started;
    void started.then((done) => current && setRead(done));
    return () => {
      current = false;
    };
  }, [file]);
  /** The dry run of `chosen` once its reading has ended (null when it could not run, or for another file). */
  const settled = useCallback(async (chosen: File): Promise<DryRun | null> => {
    const done = await reading.current;
    return done?.file === chosen && done.module && columnsNow.current
      ? done.module.dryRun(done.rows, columnsNow.current)
      : null;
  }, []);
  const state = useMemo((): DryRunState => {
    if (!file) return { kind: 'none' };
    const fileName = file.name;
    if (read?.file !== file) return { kind: 'reading', fileName };
    if (!read.module) return { kind: 'unavailable', fileName };
    if (!columns) return { kind: 'waiting-for-columns', fileName };
    return { kind: 'done', fileName, result: read.module.dryRun(read.rows, columns), columns };
  }, [file, read, columns]);
  return { state, settled };
}
