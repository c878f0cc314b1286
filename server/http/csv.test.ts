import { describe, expect, it } from 'vitest';
import { csvLine } from './csv.ts';

const cell = (value: unknown) => csvLine([value]).slice(0, -2);

describe('a CSV cell', () => {
  it.each([
    ['plain text', 'Atlantis', 'Atlantis'],
    ['a comma', 'a,b', '"a,b"'],
    ['a semicolon, where spreadsheets of comma-decimal locales split', 'x;=1+1;', '"x;=1+1;"'],
    ['a tab inside', 'a\tb', '"a\tb"'],
    ['a quote, doubled', 'say "hi"', '"say ""hi"""'],
    ['a line break', 'one\ntwo', '"one\ntwo"'],
    ['a carriage return inside', 'one\r\ntwo', '"one\r\ntwo"'],
  ])('%s', (_case, value, written) => {
    expect(cell(value)).toBe(written);
  });

  it.each([
    ['=', '=1+1', `"'=1+1"`],
    [
      '= with a quote inside',
      '=HYPERLINK("http://evil.example","Click")',
      `"'=HYPERLINK(""http://evil.example"",""Click"")"`,
    ],
    ['+', '+1+cmd|calc', `"'+1+cmd|calc"`],
    ['-', '-2+3', `"'-2+3"`],
    ['@', '@SUM(A1)', `"'@SUM(A1)"`],
    ['a tab', '\t=1', `"'\t=1"`],
    ['a carriage return', '\r=1', `"'\r=1"`],
    ['a lone minus', '-', `"'-"`],
  ])('starting with %s: quoted, a quote mark first', (_case, value, written) => {
    expect(cell(value)).toBe(written);
  });

  it.each([
    [-12.5, '-12.5'],
    ['-12.5', '-12.5'],
    [0, '0'],
    ['1e-4', '1e-4'],
    ['-.5', '-.5'],
    ['-1e5', '-1e5'],
    [1234567.25, '1234567.25'],
  ])('wholly a number (%s) stays a number', (value, written) => {
    expect(cell(value)).toBe(written);
  });

  it.each([
    ['-1e5+1', `"'-1e5+1"`],
    ['-12.5 ', `"'-12.5 "`],
    ['-0x1F', `"'-0x1F"`],
    ['-1,5', `"'-1,5"`],
    ['-12.', `"'-12."`],
    ['+3', `"'+3"`],
    ['+919876543210', `"'+919876543210"`],
  ])('almost a number (%s) is text, neutralised', (value, written) => {
    expect(cell(value)).toBe(written);
  });

  it('empty for null and undefined, JSON for an object, text for a boolean', () => {
    expect(csvLine([null, undefined, { a: 1, b: '=x' }, true])).toBe(',,"{""a"":1,""b"":""=x""}",true\r\n');
  });

  it('a line: cells joined by commas, CRLF at the end', () => {
    expect(csvLine(['Name', 'x;=1+1;', '=HYPERLINK("x")', -12.5])).toBe(
      `Name,"x;=1+1;","'=HYPERLINK(""x"")",-12.5\r\n`,
    );
  });
});
