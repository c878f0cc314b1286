import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';

/** At or below this width (px) of the list's region, rows are cards: the label, then the most important values. */
export const CARD_WIDTH_PX = 600;
/** How many values a card shows under the record's label. */
const CARD_VALUES = 3;

export interface UseTableFitResult<Frame extends HTMLElement, Table extends HTMLElement> {
  /** The block the table sits in: its width is the room there is. */
  frameRef: RefObject<Frame | null>;
  tableRef: RefObject<Table | null>;
  /** The columns left out to fit, least important first. */
  hidden: readonly string[];
  /** Rows as cards: the region is phone-wide. */
  cards: boolean;
  /** The columns a card shows under its label, most important first. */
  cardColumns: readonly string[];
}

/**
 * The columns that fit the list's region. The first column (the record's label) always stays; the others are ranked
 * by the manifest's priority (columns it does not name after it, in their order) and, while the table is wider than
 * its region, hidden from the least important up. Every change of width, columns or rows starts again from all of
 * them; the measuring happens before the browser paints, so no one sees a table that does not fit.
 */
export function useTableFit<Frame extends HTMLElement, Table extends HTMLElement>(
  columns: readonly string[],
  priority: readonly string[],
  rows: unknown,
): UseTableFitResult<Frame, Table> {
  const frameRef = useRef<Frame>(null);
  const tableRef = useRef<Table>(null);
  const [width, setWidth] = useState<number | null>(null);
  const ranked = useMemo(() => rank(columns.slice(1), priority), [columns, priority]);
  const cardColumns = useMemo(() => ranked.slice(0, CARD_VALUES), [ranked]);
  const [fit, setFit] = useState<Fit>({ width: null, ranked: [], rows: null, count: 0 });
  const count = fit.width === width && fit.ranked === ranked && fit.rows === rows ? fit.count : 0;
  const cards = width !== null && width <= CARD_WIDTH_PX;

  // The room the fitting below last measured: the width is state only once it differs from that.
  const measured = useRef<number | null>(null);

  // Resizes after the first measuring (which the fitting below does, in the same layout as its own).
  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => {
      const room = frame.clientWidth || null;
      if (room === measured.current) return;
      measured.current = room;
      setWidth(room);
    });
    observer.observe(frame);
    return () => observer.disconnect();
  }, []);

  useLayoutEffect(() => {
    const frame = frameRef.current;
    const table = tableRef.current;
    if (!frame || !table) return;
    // One layout gives the room and the table's width. A list that fits as first rendered renders once: the room
    // becomes state only where it changes what is shown (phone-wide rows are cards) or on a resize.
    const room = frame.clientWidth || null;
    measured.current = room;
    if ((room !== null && room <= CARD_WIDTH_PX) !== cards) {
      setWidth(room);
      return;
    }
    if (cards || room === null || count >= ranked.length) return;
    let excess = table.offsetWidth - room;
    if (excess <= 0) return;
    // As many of the least important columns as the excess measures, by their heading cells, go in one step (each
    // step is a render of every row); the next layout checks the result and takes another if it still does not fit.
    const widths = new Map(
      [...table.querySelectorAll<HTMLElement>('th[data-column]')].map((cell) => [
        cell.dataset.column,
        cell.offsetWidth,
      ]),
    );
    let next = count;
    while (excess > 0 && next < ranked.length) {
      excess -= widths.get(ranked[ranked.length - 1 - next]) ?? 0;
      next += 1;
    }
    setFit({ width, ranked, rows, count: next });
  }, [width, ranked, rows, count, cards]);

  return {
    frameRef,
    tableRef,
    hidden: cards || count === 0 ? [] : ranked.slice(-count).reverse(),
    cards,
    cardColumns,
  };
}

/** How many columns are left out, and for which width, ranking and rows that was worked out. */
interface Fit {
  width: number | null;
  ranked: readonly string[];
  rows: unknown;
  count: number;
}

/** The columns in priority order: those the priority names first, then the rest in their order. */
function rank(columns: readonly string[], priority: readonly string[]): string[] {
  const order = (name: string) => {
    const at = priority.indexOf(name);
    return at === -1 ? priority.length + columns.indexOf(name) : at;
  };
  return [...columns].sort((a, b) => order(a) - order(b));
}
