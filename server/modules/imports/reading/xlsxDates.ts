/**
 * Which number cells of a sheet are dates, and the text a date becomes. A sheet stores a date as a number of days; its
 * cell style's number format says it is one: a built-in date format, or a format code made of date and time tokens.
 */

const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54, 55, 56,
  57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81,
]);
const DATE_TOKENS = new Set([
  's',
  'ss',
  'm',
  'mm',
  'h',
  'hh',
  'am',
  'pm',
  'a',
  'p',
  'd',
  'dd',
  'ddd',
  'dddd',
  'aaa',
  'aaaa',
  'aaaaa',
  'mmm',
  'mmmm',
  'mmmmm',
  'y',
  'yy',
  'yyyy',
  'e',
  'ee',
  'eeee',
]);
/** Format codes numbered from here are the file's own (`<numFmt>`); below, built in. */
const FIRST_CUSTOM_FORMAT = 100;

export function isDateFormat(id: number, code: string | undefined): boolean {
  if (BUILT_IN_DATE_FORMATS.has(id)) return true;
  return id >= FIRST_CUSTOM_FORMAT && code !== undefined && isDateFormatCode(code);
}

function isDateFormatCode(code: string): boolean {
  const sections = code.toLowerCase().replace(/;@$/, '').replace(/\\./g, ' ').split(';');
  return sections.some((section) => {
    const tokens = section
      .replace(/"[^"]*"/g, ' ')
      .replace(/(\[?[smhd]{1,2}\]?)[.,]00?0?/g, '$1')
      .replace(/\[([smhd]{1,2})\]/g, '$1')
      .replace(/\[[^\]]*\]/g, '')
      .split(/[^a-z0#?%]+/)
      .filter(Boolean);
    return tokens.length > 0 && tokens.every((token) => DATE_TOKENS.has(token));
  });
}

const DAY_MILLISECONDS = 24 * 60 * 60 * 1000;
/** Days from the sheet's day 0 (1899-12-31, with its 1900-02-29 that never was) to 1970-01-01. */
const DAYS_TO_UNIX_EPOCH = 25_569;
/** Days the 1904 date system (old Mac workbooks) starts later. */
const DAYS_1904 = 1_462;

export function sheetDate(days: number, epoch1904: boolean): Date {
  return new Date(Math.floor((days + (epoch1904 ? DAYS_1904 : 0) - DAYS_TO_UNIX_EPOCH) * DAY_MILLISECONDS));
}

/** A date as the text a CSV would hold: YYYY-MM-DD, with its time when it has one. */
export function dateText(date: Date): string {
  if (Number.isNaN(date.getTime())) return '';
  const iso = date.toISOString();
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
}
