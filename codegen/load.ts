import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { manifestError, type ManifestError } from './errors.ts';
import type { AreaManifest } from './generated/manifest.ts';

export interface LoadedArea {
  /** File name relative to the manifest folder, e.g. voucher-management.json. */
  file: string;
  /** Parsed but not yet validated. */
  document: AreaManifest;
}

export interface LoadResult {
  areas: LoadedArea[];
  errors: ManifestError[];
}

export const SCHEMA_FILE = 'manifest.schema.json';

/** Reads every area file of a manifest folder (sorted by name); the schema file itself is skipped. */
export async function loadManifest(dir: string): Promise<LoadResult> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((name) => name.endsWith('.json') && name !== SCHEMA_FILE).sort();
  } catch (cause) {
    return {
      areas: [],
      errors: [
        manifestError('UnreadableManifest', dir, '', `cannot read the manifest folder: ${(cause as Error).message}`),
      ],
    };
  }
  if (names.length === 0) {
    return {
      areas: [],
      errors: [manifestError('UnreadableManifest', dir, '', 'the manifest folder holds no area file (*.json)')],
    };
  }
  const areas: LoadedArea[] = [];
  const errors: ManifestError[] = [];
  const texts = await Promise.all(names.map((file) => readFile(join(dir, file), 'utf8')));
  for (const [index, file] of names.entries()) {
    const parsed = parseJson(texts[index]!);
    if ('error' in parsed) errors.push(manifestError('InvalidJson', file, '', parsed.error));
    else areas.push({ file, document: parsed.value as AreaManifest });
  }
  return { areas, errors };
}

/** JSON.parse with the line and column of a syntax error. */
export function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch {
    const { index, expected } = firstSyntaxError(text);
    const before = text.slice(0, index);
    const line = before.split('\n').length;
    const column = index - before.lastIndexOf('\n');
    const found = index < text.length ? JSON.stringify(text[index]) : 'end of file';
    return { error: `invalid JSON at line ${line}, column ${column}: expected ${expected}, found ${found}` };
  }
}

/**
 * Where JSON.parse gave up. V8's message carries no position on Node 20, so scan the text with a small
 * recursive-descent recogniser that stops at the first character that cannot continue a JSON document.
 */
function firstSyntaxError(text: string): { index: number; expected: string } {
  let i = 0;
  const fail = (expected: string): never => {
    throw { index: i, expected };
  };
  const space = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string) => {
    for (const char of word) {
      if (text[i] !== char) fail(`"${word}"`);
      i++;
    }
  };
  const string = () => {
    if (text[i] !== '"') fail('a string');
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === '\\') i++;
      else if (text.charCodeAt(i) < 0x20) fail('a closing quote');
      i++;
    }
    if (text[i] !== '"') fail('a closing quote');
    i++;
  };
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail('a value');
    i += match![0].length;
  };
  /** The items of an object or an array, after its opening bracket: none, or items between commas, then `close`. */
  const items = (close: '}' | ']', item: () => void) => {
    i++;
    space();
    if (text[i] === close) return void i++;
    for (;;) {
      item();
      space();
      if (text[i] === ',') i++;
      else if (text[i] === close) return void i++;
      else fail(`"," or "${close}"`);
    }
  };
  const member = () => {
    space();
    string();
    space();
    if (text[i] !== ':') fail('":"');
    i++;
    value();
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') return items('}', member);
    if (char === '[') return items(']', value);
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    number();
  };
  try {
    value();
    space();
    if (i < text.length) fail('end of file');
    return { index: i, expected: 'valid JSON' };
  } catch (error) {
    return error as { index: number; expected: string };
  }
}
