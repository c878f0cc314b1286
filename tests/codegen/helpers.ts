import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onTestFinished } from 'vitest';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const fixturesDir = join(projectRoot, 'tests', 'fixtures');

/** An empty temporary folder, removed when the current test finishes. */
export async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  onTestFinished(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A scratch copy of a fixture's manifest folder that a test may break. */
export async function scratchManifest(fixture = 'minimal'): Promise<string> {
  const dir = await tempDir('manifest');
  await cp(join(fixturesDir, fixture, 'manifest'), dir, { recursive: true });
  return dir;
}

export async function editJson(file: string, edit: (document: Record<string, any>) => void): Promise<void> {
  const document = JSON.parse(await readFile(file, 'utf8'));
  edit(document);
  await writeFile(file, JSON.stringify(document, null, 2));
}
