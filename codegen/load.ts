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
    return { areas: [], errors: [manifestError('UnreadableManifest', dir, '', `cannot read the manifest folder: ${(cause as Error).message}`)] };
  }
  if (names.length === 0) {
    return { areas: [], errors: [manifestError('UnreadableManifest', dir, '', 'the manifest folder holds no area file (*.json)')] };
  }
  const areas: LoadedArea[] = [];
  const errors: ManifestError[] = [];
  for (const file of names) {
    const text = await readFile(join(dir, file), 'utf8');
    const parsed = parseJson(text);
    if ('error' in parsed) errors.push(manifestError('InvalidJson', file, '', parsed.error));
    else areas.push({ file, document: parsed.value as AreaManifest });
  }
  return { areas, errors };
}

/** JSON.parse with the line and column of a syntax error. */
export function parseJson(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (cause) {
    const message = (cause as Error).message;
    const position = /position (\d+)/.exec(message);
    const lineColumn = /line (\d+) column (\d+)/.exec(message);
    let where = '';
    if (lineColumn) where = `line ${lineColumn[1]}, column ${lineColumn[2]}`;
    else if (position) {
      const before = text.slice(0, Number(position[1]));
      const line = before.split('\n').length;
      where = `line ${line}, column ${before.length - before.lastIndexOf('\n')}`;
    } else {
      const lines = text.split('\n');
      where = `line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
    }
    return { error: `invalid JSON at ${where}: ${message.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')}` };
  }
}
