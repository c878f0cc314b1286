import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

/** JWT_SECRET from the environment, else a random one generated once and kept in the data folder. */
export function jwtSecret(env: NodeJS.ProcessEnv, dataDir: string | null): Uint8Array {
  if (env.JWT_SECRET) {
    if (env.JWT_SECRET.length < 32) throw new Error('JWT_SECRET must be at least 32 characters.');
    return new TextEncoder().encode(env.JWT_SECRET);
  }
  if (!dataDir) return randomBytes(32);
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, 'jwt-secret');
  if (!existsSync(file)) createSecretFile(file);
  chmodSync(file, 0o600);
  const secret = readFileSync(file, 'utf8').trim();
  if (secret.length < 32)
    throw new Error(
      `${file} holds no valid secret (under 32 characters): remove it to generate a new one (signed-in users sign in again), or set JWT_SECRET.`,
    );
  return new TextEncoder().encode(secret);
}

/**
 * Written whole to a file of its own, then linked to its name, which fails if another process (create-admin on
 * PostgreSQL takes no lock) got there first: the secret file is never seen empty or half written, even after a kill.
 */
function createSecretFile(file: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  const descriptor = openSync(temporary, 'w', 0o600);
  try {
    writeSync(descriptor, randomBytes(48).toString('base64url'));
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  try {
    linkSync(temporary, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}
