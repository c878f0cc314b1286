import { execFile } from 'node:child_process';
import { cp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it, onTestFinished } from 'vitest';
import { projectRoot, tempDir } from './helpers.ts';

const SOURCES = ['cli', 'codegen', 'contract', 'validation', 'manifest'];

/** A copy of the CLI's sources in a folder of its own, sharing this project's node_modules. */
async function projectCopy(): Promise<string> {
  const dir = await tempDir('cli-bundle');
  for (const folder of SOURCES) await cp(join(projectRoot, folder), join(dir, folder), { recursive: true });
  await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const { cacheDir } = (await import(pathToFileURL(join(dir, 'cli', 'bundle.mjs')).href)) as { cacheDir: URL };
  onTestFinished(() => rm(cacheDir, { recursive: true, force: true }));
  return dir;
}

async function generate(dir: string): Promise<string> {
  await promisify(execFile)(process.execPath, [join(dir, 'cli', 'bin.mjs'), 'generate', '--out', dir], { cwd: dir });
  return readFile(join(dir, 'src', 'generated', 'permissions.ts'), 'utf8');
}

describe('the CLI runs from a bundle of its sources', () => {
  it('is rebuilt when a source changes, and reused while none does', async () => {
    const dir = await projectCopy();
    expect(await generate(dir)).toContain('Do not edit');
    const { cacheDir } = (await import(pathToFileURL(join(dir, 'cli', 'bundle.mjs')).href)) as { cacheDir: URL };
    const built = (await stat(new URL('cli.mjs', cacheDir))).mtimeMs;

    await generate(dir);
    expect((await stat(new URL('cli.mjs', cacheDir))).mtimeMs).toBe(built);

    const header = join(dir, 'codegen', 'emit', 'header.ts');
    await writeFile(header, (await readFile(header, 'utf8')).replace('Do not edit:', 'Never edit:'));
    const text = await generate(dir);
    expect(text).toContain('Never edit:');
    expect(text).not.toContain('Do not edit');
  });
});
