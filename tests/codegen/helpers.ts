import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const fixturesDir = join(projectRoot, 'tests', 'fixtures');

/** A scratch copy of a fixture's manifest folder that a test may break. */
export async function scratchManifest(fixture = 'minimal'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'manifest-'));
  await cp(join(fixturesDir, fixture, 'manifest'), dir, { recursive: true });
  return dir;
}

export async function editJson(file: string, edit: (document: Record<string, any>) => void): Promise<void> {
  const document = JSON.parse(await readFile(file, 'utf8'));
  edit(document);
  await writeFile(file, JSON.stringify(document, null, 2));
}
