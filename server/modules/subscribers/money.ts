/**
 * Amounts in rupees as the API reads and answers them, counted in whole paise in between so that a discount never
 * gains or loses a fraction (`numeric(14,2)` in the database).
 */
export function toPaise(rupees: number | string): number {
  return Math.round(Number(rupees) * 100);
}

export function toRupees(paise: number): number {
  return paise / 100;
}

/** ₹1,23,456.50 (Indian grouping), as people read an amount in a message. */
export function rupeesText(paise: number): string {
  return `₹${toRupees(paise).toLocaleString('en-IN', { minimumFractionDigits: paise % 100 === 0 ? 0 : 2, maximumFractionDigits: 2 })}`;
}

/** 04 Mar 2026, as the console shows a date. */
export function dateText(isoDate: string): string {
  const [year, month, day] = isoDate.slice(0, 10).split('-').map(Number);
  return new Date(Date.UTC(year!, month! - 1, day!)).toLocaleDateString('en-GB', {
    day: '2-digit',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
