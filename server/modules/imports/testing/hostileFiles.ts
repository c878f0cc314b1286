/**
 * Import files made to hurt a server that reads them carelessly: each small as posted, each meant to be refused by one
 * limit of importLimits.ts. Made in memory by the tests, never kept on disk.
 */
import { strToU8, zipSync, type Zippable } from 'fflate';

const MIB = 1024 * 1024;

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>' +
  '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
  '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>';
const PACKAGE_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>';
const WORKBOOK =
  '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">' +
  '<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>';
const WORKBOOK_RELS =
  '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
  '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>';

export const SHEET_PART = 'xl/worksheets/sheet1.xml';

/** A zip of the given parts, each deflated at the highest level (so a repetitive part is as small as it gets). */
export function zipOf(parts: Record<string, Uint8Array | string>): Buffer {
  const files: Zippable = {};
  for (const [name, data] of Object.entries(parts))
    files[name] = [typeof data === 'string' ? strToU8(data) : data, { level: 9 }];
  return Buffer.from(zipSync(files));
}

/** An XLSX file whose first sheet is `sheetData` (the XML inside `<sheetData>`), with `<dimension ref>` when given. */
export function xlsxOf(sheetData: string | Uint8Array, dimension?: string): Buffer {
  const head = strToU8(
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">' +
      (dimension ? `<dimension ref="${dimension}"/>` : '') +
      '<sheetData>',
  );
  const body = typeof sheetData === 'string' ? strToU8(sheetData) : sheetData;
  const tail = strToU8('</sheetData></worksheet>');
  const sheet = new Uint8Array(head.length + body.length + tail.length);
  sheet.set(head, 0);
  sheet.set(body, head.length);
  sheet.set(tail, head.length + body.length);
  return zipOf({
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': PACKAGE_RELS,
    'xl/workbook.xml': WORKBOOK,
    'xl/_rels/workbook.xml.rels': WORKBOOK_RELS,
    [SHEET_PART]: sheet,
  });
}

/** A cell holding text, at a reference. */
export function textCell(ref: string, text: string): string {
  return `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
}

/** `hs_code` in A1 and one more cell, as a row of its own or beside it. */
export function xlsxWithFarCell(ref: string): Buffer {
  const row = Number(/\d+$/.exec(ref)![0]);
  const far = row === 1 ? '' : `<row r="${row}">${textCell(ref, '1')}</row>`;
  return xlsxOf(`<row r="1">${textCell('A1', 'hs_code')}${row === 1 ? textCell(ref, '1') : ''}</row>${far}`);
}

/** A sheet whose only content is `megabytes` of spaces between two rows: a few tens of kilobytes deflated. */
export function whitespaceBomb(megabytes: number): Buffer {
  const spaces = new Uint8Array(megabytes * MIB).fill(0x20);
  const rows = strToU8(`<row r="1">${textCell('A1', 'hs_code')}</row>`);
  const sheet = new Uint8Array(rows.length + spaces.length);
  sheet.set(rows, 0);
  sheet.set(spaces, rows.length);
  return xlsxOf(sheet);
}

/**
 * The zip with what its directory (and the part's local header) declares as the part's uncompressed size replaced:
 * the lie a zip bomb tells. Where the fields are is fixed by the zip format (APPNOTE 4.3.7 and 4.3.12).
 */
export function declaring(zip: Buffer, part: string, uncompressedSize: number): Buffer {
  const lied = Buffer.from(zip);
  const name = Buffer.from(part);
  for (let at = lied.indexOf(name); at >= 0; at = lied.indexOf(name, at + 1)) {
    if (at >= 46 && lied.readUInt32LE(at - 46) === 0x02014b50) lied.writeUInt32LE(uncompressedSize, at - 46 + 24);
    else if (at >= 30 && lied.readUInt32LE(at - 30) === 0x04034b50) lied.writeUInt32LE(uncompressedSize, at - 30 + 22);
  }
  return lied;
}

/** A CSV line of `count` columns. */
export function csvOfColumns(count: number): string {
  return `${Array.from({ length: count }, (_unused, index) => `c${index}`).join(',')}\n`;
}
