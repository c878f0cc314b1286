import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * One CSV line (RFC 4180, `,` between cells, CRLF at the end). Every CSV the server writes (resource exports, the
 * audit log, report exports, rejected import rows, import templates) is made of these lines, so one rule decides how
 * a cell is written; docs/api.md, "CSV files", says it for the people who open them.
 */
export function csvLine(cells: readonly unknown[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * What a spreadsheet would run as a formula when a cell starts with it (OWASP, "CSV Injection"): `=`, `+`, `-`, `@`,
 * tab and carriage return.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * What makes a cell quoted: the separators spreadsheets split on (`,`, and `;` or tab in locales whose decimal mark is
 * a comma, where `x;=1+1` unquoted becomes a cell that runs `=1+1`), the quote itself and line breaks.
 */
const NEEDS_QUOTES = /[,;\t"\r\n]/;
/**
 * A cell that is wholly a number as numbers are written (`-12.5`, `1e-4`) is no formula in any spreadsheet, so it is
 * written as is and stays a number there: neutralising it as OWASP suggests would turn every negative amount into text.
 * A leading `+` is not how a number is written but how a phone number is (`+919876543210`): that stays neutralised,
 * and so shows as the text it is rather than as 9.19877E+11.
 */
const PLAIN_NUMBER = /^-?(?:\d+(?:\.\d+)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A cell written so that a spreadsheet shows it as the text it is: quoted when it holds a separator, a quote or a
 * line break, and, when it starts like a formula, quoted with `'` put first (the spreadsheet's own mark for "this is
 * text", which it hides), so `=HYPERLINK(...)` is written `"'=HYPERLINK(...)"`.
 */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (PLAIN_NUMBER.test(text)) return text;
  if (FORMULA_START.test(text)) return quoted(`'${text}`);
  return NEEDS_QUOTES.test(text) ? quoted(text) : text;
}

const quoted = (text: string) => `"${text.replace(/"/g, '""')}"`;

/**
 * Sends a CSV file as a download named `fileName` (its answer schema: `csvAnswer`): text whole, or lines streamed as
 * they are written, so no serialiser touches it.
 */
export function sendCsvFile(
  reply: FastifyReply,
  fileName: string,
  body: string | AsyncIterable<string | Buffer>,
): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${fileName}"`)
    .send(typeof body === 'string' ? body : Readable.from(body));
}
