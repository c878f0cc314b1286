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
export function useTableFit<Frame extends HTMLElement, Table extends HTMLElement>(columns: readonly string[], priority: readonly string[], rows: unknown): UseTableFitResult<Frame, Table> {
  const frameRef = useRef<Frame>(null);
  const tableRef = useRef<Table>(null);
  const width = useWidth(frameRef);
  const ranked = useMemo(() => rank(columns.slice(1), priority), [columns, priority]);
  const basis = useMemo(() => ({ width, ranked, rows }), [width, ranked, rows]);
  const [fit, setFit] = useState({ basis, count: 0 });
  const count = fit.basis === basis ? fit.count : 0;
  const cards = width !== null && width <= CARD_WIDTH_PX;

  useLayoutEffect(() => {
    const frame = frameRef.current;
    const table = tableRef.current;
    if (cards || !frame || !table || count >= ranked.length) return;
    if (table.offsetWidth > frame.clientWidth) setFit({ basis, count: count + 1 });
  }, [basis, count, cards, ranked.length]);

  return {
    frameRef,
    tableRef,
    hidden: cards || count === 0 ? [] : ranked.slice(-count).reverse(),
    cards,
    cardColumns: ranked.slice(0, CARD_VALUES),
  };
}

/** The columns in priority order: those the priority names first, then the rest in their order. */
function rank(columns: readonly string[], priority: readonly string[]): string[] {
  const order = (name: string) => {
    const at = priority.indexOf(name);
    return at === -1 ? priority.length + columns.indexOf(name) : at;
  };
  return [...columns].sort((a, b) => order(a) - order(b));
}

/** An element's width, following resizes; null before it is known (or where nothing is laid out). */
function useWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth || null);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
