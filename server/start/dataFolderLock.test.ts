import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolderInUse, HOLDER_FILE, LOCK_FILE, lockDataFolder, type DataFolderLock } from './dataFolderLock.ts';
import { folderSnapshot } from '../testing/serverProcess.ts';

const ROOT = resolve(import.meta.dirname, '../..');
let folder: string;
const held: DataFolderLock[] = [];

function newFolder(): string {
  folder = mkdtempSync(join(tmpdir(), 'data-folder-lock-'));
  return folder;
}

async function lock(program = 'the server'): Promise<DataFolderLock> {
  const taken = await lockDataFolder(folder, program);
  held.push(taken);
  return taken;
}

afterEach(() => {
  for (const taken of held.splice(0)) taken.release();
  rmSync(folder, { recursive: true, force: true });
});

/** Another process that takes the folder's lock and keeps it until it is killed. */
function holderProcess(dataFolder: string) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      `import { lockDataFolder } from './server/start/dataFolderLock.ts'; await lockDataFolder(process.argv[1], 'a holder'); console.log('held'); setInterval(() => {}, 60_000);`,
      dataFolder,
    ],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
  const holding = new Promise<void>((resolveHeld, reject) => {
    child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolveHeld());
    void exited.then(() => reject(new Error('the holder exited before taking the lock')));
  });
  return { child, holding, exited };
}

async function refusal(program = 'create-admin'): Promise<DataFolderInUse> {
  const error = await lockDataFolder(folder, program).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(DataFolderInUse);
  return error as DataFolderInUse;
}

describe('the data folder lock', () => {
  it('refuses a second holder with the first one named, changing nothing in the folder, until the first releases it', async () => {
    newFolder();
    const first = await lock();
    writeFileSync(join(folder, 'jwt-secret'), 'x'.repeat(64));
    const before = folderSnapshot(folder);

    const refused = await refusal();
    expect(refused.holder).toMatchObject({ program: 'the server', pid: process.pid });
    expect(refused.message).toMatch(
      new RegExp(
        `^The data folder ${folder} is in use by the server \\(pid ${process.pid}, started \\d{4}-\\d\\d-\\d\\dT`,
      ),
    );
    expect(folderSnapshot(folder)).toEqual(before);

    first.release();
    expect(existsSync(join(folder, HOLDER_FILE))).toBe(false);
    expect(existsSync(join(folder, LOCK_FILE))).toBe(true);
    await lock('create-admin');
    expect(JSON.parse(readFileSync(join(folder, HOLDER_FILE), 'utf8'))).toMatchObject({
      program: 'create-admin',
      pid: process.pid,
    });
  });

  it(
    'is held by another process until that process is killed with SIGKILL, then taken at once',
    { timeout: 60_000 },
    async () => {
      newFolder();
      const holder = holderProcess(folder);
      await holder.holding;
      expect((await refusal()).holder).toMatchObject({ program: 'a holder', pid: holder.child.pid });

      holder.child.kill('SIGKILL');
      await holder.exited;
      // The dead holder's record is still there; the lock is not.
      expect(JSON.parse(readFileSync(join(folder, HOLDER_FILE), 'utf8'))).toMatchObject({ pid: holder.child.pid });
      await lock();
      expect(JSON.parse(readFileSync(join(folder, HOLDER_FILE), 'utf8'))).toMatchObject({
        program: 'the server',
        pid: process.pid,
      });
    },
  );

  it('is not blocked by a lock file and a record left by a process that died', async () => {
    newFolder();
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((resolveExit) => dead.once('exit', resolveExit));
    writeFileSync(join(folder, LOCK_FILE), '');
    writeFileSync(
      join(folder, HOLDER_FILE),
      JSON.stringify({ program: 'the server', pid: dead.pid, host: 'here', startedAt: '2020-01-01T00:00:00.000Z' }),
    );
    await lock();
  });

  it(
    'names no one rather than a dead process when the holder has not recorded itself',
    { timeout: 60_000 },
    async () => {
      newFolder();
      const holder = holderProcess(folder);
      await holder.holding;
      rmSync(join(folder, HOLDER_FILE));
      const refused = await refusal();
      expect(refused.holder).toBeNull();
      expect(refused.message).toContain('is in use by another process (which has not recorded itself yet)');
      holder.child.kill('SIGKILL');
      await holder.exited;
    },
  );

  it('leaves a whole record or none, and no lock, whenever its holder is killed', { timeout: 120_000 }, async () => {
    newFolder();
    for (const delayMs of [150, 300, 350, 400, 450, 500, 600, 900]) {
      const holder = holderProcess(folder);
      holder.holding.catch(() => undefined);
      await new Promise((resolveDelay) => setTimeout(resolveDelay, delayMs));
      holder.child.kill('SIGKILL');
      await holder.exited;
      if (existsSync(join(folder, HOLDER_FILE)))
        expect(JSON.parse(readFileSync(join(folder, HOLDER_FILE), 'utf8'))).toHaveProperty('pid');
      (await lock()).release();
    }
  });
});
