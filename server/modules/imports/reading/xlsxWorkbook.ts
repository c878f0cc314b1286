import { posix } from 'node:path';
import { SaxesParser } from 'saxes';
import { IMPORT_MAX_CELL_CHARS } from '../importLimits.ts';
import { FileRefused, UNREADABLE_XLSX } from './refusal.ts';
import type { XlsxArchive } from './xlsxArchive.ts';
import { isDateFormat } from './xlsxDates.ts';

interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  close?(name: string): void;
  text?(text: string): void;
}

/** A part's XML, parsed as it inflates (never whole in memory); element names without their namespace prefix. */
export async function readXml(archive: XlsxArchive, part: string, handlers: XmlHandlers): Promise<void> {
  const parser = new SaxesParser();
  const { open, close, text } = handlers;
  if (open) parser.on('opentag', (tag) => open(localName(tag.name), tag.attributes as Record<string, string>));
  if (close) parser.on('closetag', (tag) => close(localName(tag.name)));
  if (text) {
    parser.on('text', text);
    parser.on('cdata', text);
  }
  try {
    for await (const chunk of archive.text(part)) parser.write(chunk);
    parser.close();
  } catch (error) {
    throw error instanceof FileRefused ? error : new FileRefused(UNREADABLE_XLSX);
  }
}

function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1);
}

/** `_x000D_` and the like: characters XML cannot hold, as a sheet writes them. */
export function unescapeSheetText(text: string): string {
  return text.includes('_x')
    ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_match, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    : text;
}

const RELATIONSHIP_TYPES = [
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/',
  'http://purl.oclc.org/ooxml/officeDocument/relationships/',
];

/** Where the workbook's first sheet, its shared strings and its styles are, and whether it counts days from 1904. */
export interface WorkbookParts {
  sheet: string;
  sharedStrings: string | null;
  styles: string | null;
  epoch1904: boolean;
}

export async function workbookParts(archive: XlsxArchive): Promise<WorkbookParts> {
  if (!archive.has('xl/workbook.xml') || !archive.has('xl/_rels/workbook.xml.rels'))
    throw new FileRefused('This ZIP file is not an XLSX workbook.');
  let firstSheet: string | null = null;
  let epoch1904 = false;
  await readXml(archive, 'xl/workbook.xml', {
    open(name, attributes) {
      if (name === 'workbookPr') epoch1904 = attributes.date1904 === '1' || attributes.date1904 === 'true';
      if (name === 'sheet' && firstSheet === null)
        firstSheet = Object.entries(attributes).find(([attribute]) => localName(attribute) === 'id')?.[1] ?? null;
    },
  });
  const targets = new Map<string, string>();
  let sharedStrings: string | null = null;
  let styles: string | null = null;
  await readXml(archive, 'xl/_rels/workbook.xml.rels', {
    open(name, { Id, Type, Target }) {
      if (name !== 'Relationship' || !Type || !Target) return;
      const kind = RELATIONSHIP_TYPES.find((prefix) => Type.startsWith(prefix))
        ? Type.slice(Type.lastIndexOf('/') + 1)
        : null;
      const path = Target.startsWith('/') ? Target.slice(1) : posix.normalize(`xl/${Target}`);
      if (kind === 'worksheet' && Id) targets.set(Id, path);
      if (kind === 'sharedStrings') sharedStrings = path;
      if (kind === 'styles') styles = path;
    },
  });
  const sheet = firstSheet === null ? undefined : targets.get(firstSheet);
  if (!sheet || !archive.has(sheet)) throw new FileRefused('This XLSX file has no sheet to read.');
  return {
    sheet,
    sharedStrings: sharedStrings && archive.has(sharedStrings) ? sharedStrings : null,
    styles: styles && archive.has(styles) ? styles : null,
    epoch1904,
  };
}

/** The shared strings a sheet's cells point to; one longer than a cell may hold is kept as null, refused if used. */
export async function sharedStringsOf(archive: XlsxArchive, part: string | null): Promise<Array<string | null>> {
  const strings: Array<string | null> = [];
  if (!part) return strings;
  let current: string | null = null;
  let inText = false;
  let inPhonetic = false;
  await readXml(archive, part, {
    open(name) {
      if (name === 'si') current = '';
      else if (name === 't') inText = true;
      else if (name === 'rPh') inPhonetic = true;
    },
    close(name) {
      if (name === 'si') {
        strings.push(current === null ? null : unescapeSheetText(current).trim());
        current = null;
      } else if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
    },
    text(text) {
      if (current === null || !inText || inPhonetic) return;
      current += text;
      if (current.length > IMPORT_MAX_CELL_CHARS) current = null;
    },
  });
  return strings;
}

/** Which cell styles (by index) show their number as a date. */
export async function dateStylesOf(archive: XlsxArchive, part: string | null): Promise<boolean[]> {
  if (!part) return [];
  const codes = new Map<number, string>();
  const baseFormats: Array<number | undefined> = [];
  const cellFormats: Array<number | undefined> = [];
  let list: 'cellStyleXfs' | 'cellXfs' | null = null;
  await readXml(archive, part, {
    open(name, attributes) {
      if (name === 'numFmt' && attributes.numFmtId && attributes.formatCode !== undefined)
        codes.set(Number(attributes.numFmtId), attributes.formatCode);
      else if (name === 'cellStyleXfs' || name === 'cellXfs') list = name;
      else if (name === 'xf' && list === 'cellStyleXfs')
        baseFormats.push(attributes.numFmtId ? Number(attributes.numFmtId) : undefined);
      else if (name === 'xf' && list === 'cellXfs') {
        cellFormats.push(
          attributes.numFmtId
            ? Number(attributes.numFmtId)
            : attributes.xfId
              ? baseFormats[Number(attributes.xfId)]
              : undefined,
        );
      }
    },
    close(name) {
      if (name === list) list = null;
    },
  });
  return cellFormats.map((id) => id !== undefined && isDateFormat(id, codes.get(id)));
}
