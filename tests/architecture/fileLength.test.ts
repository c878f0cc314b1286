import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
/** The most lines a hand-written source file may have; a longer one is split by concern. */
const MAX_LINES = 300;
const FOLDERS = ['src', 'server', 'codegen', 'contract', 'validation', 'cli', 'bench'];

/** Every hand-written source file below `folders`: tests, generated code, fixtures and dependencies aside. */
function handWrittenFiles(folders: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (['node_modules', 'generated', 'fixtures'].includes(name)) continue;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(ts|tsx|mjs|js|css)$/.test(name) && !/\.test\./.test(name)) found.push(relative(ROOT, path));
    }
  };
  for (const folder of folders) walk(join(ROOT, folder));
  return found.sort();
}

/** A file's lines as an editor counts them: a final newline ends the last line, it does not start another. */
function lineCount(file: string): number {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return text === '' ? 0 : text.replace(/\n$/, '').split('\n').length;
}

describe('file length', () => {
  const files = handWrittenFiles(FOLDERS);

  it('looks at the hand-written files it is meant to judge, and only those', () => {
    expect(files).toContain('server/app.ts');
    expect(files).toContain('src/screens/screens.css');
    expect(files).toContain('cli/bin.mjs');
    expect(files.some((file) => /\.test\.|\/generated\/|\/fixtures\//.test(file))).toBe(false);
  });

  it(`no hand-written source file is longer than ${MAX_LINES} lines`, () => {
    const tooLong = files
      .map((file) => ({ file, lines: lineCount(file) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(tooLong).toEqual([]);
  });
});
