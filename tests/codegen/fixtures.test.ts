import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { buildModel, emitAll } from '../../codegen/index.ts';
import { fixturesDir } from './helpers.ts';

// Each tests/fixtures/<case>/ holds a manifest/ and the expected/ output; UPDATE_FIXTURES=1 rewrites expected/.
const cases = (await readdir(fixturesDir)).sort();

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(dir, join(entry.parentPath, entry.name))).sort();
}

describe('generation from fixture manifests', () => {
  it.each(cases)('%s generates exactly its expected files', async (name) => {
    const built = await buildModel(join(fixturesDir, name, 'manifest'));
    expect(built.errors).toEqual([]);
    const files = await emitAll(built.model!);
    const expectedDir = join(fixturesDir, name, 'expected');
    if (process.env.UPDATE_FIXTURES === '1') {
      await rm(expectedDir, { recursive: true, force: true });
      for (const [path, text] of files) {
        await mkdir(dirname(join(expectedDir, path)), { recursive: true });
        await writeFile(join(expectedDir, path), text);
      }
    }
    expect([...files.keys()].sort()).toEqual(await listFiles(expectedDir));
    for (const [path, text] of files) expect(text, path).toBe(await readFile(join(expectedDir, path), 'utf8'));
  });

  it.each(cases)('%s: its OpenAPI document is valid OpenAPI 3.1', async (name) => {
    const document = JSON.parse(await readFile(join(fixturesDir, name, 'expected', 'server', 'generated', 'openapi.json'), 'utf8'));
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });
});
