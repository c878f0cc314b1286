import { parseArgs } from 'node:util';
import { PasswordHasher } from '../modules/auth/passwords.ts';
import { dataFolder, loadConfig } from '../start/loadConfig.ts';
import { lockDataFolder } from '../start/dataFolderLock.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { startupTransaction } from '../db/startupLock.ts';
import { formats } from '../../validation/formats.ts';
import { DATA_SHAPE } from '../registry.ts';
import { upsertRole, upsertUser, SEED_ROLES } from '../seed/roles.ts';

/** npm run create-admin -- --email a@b.c --password '...' [--first-name A --last-name B]: the first administrator in production. */
async function createAdmin(): Promise<void> {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      'first-name': { type: 'string', default: 'Admin' },
      'last-name': { type: 'string', default: 'User' },
    },
  });
  if (!values.email || !formats.email(values.email)) throw new Error('Give a valid --email.');
  if (!values.password || !formats.password(values.password))
    throw new Error('Give a --password of at least 8 characters with a letter, a digit and a special character.');
  // PGlite is one process's at a time: refused while the server (or another create-admin) holds the folder.
  // PostgreSQL takes concurrent writers, so it runs beside the servers.
  if (!process.env.DATABASE_URL) await lockDataFolder(dataFolder(), 'create-admin');
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db, { manifestShape: DATA_SHAPE });
    const superAdmin = SEED_ROLES[0]!;
    const user = {
      email: values.email,
      password: values.password,
      firstName: values['first-name'],
      lastName: values['last-name'],
      role: superAdmin.name,
    };
    // Under the start-up lock, as one transaction: beside servers starting on the same PostgreSQL (which seed the role too).
    const id = await startupTransaction(db, async (tx) =>
      upsertUser(tx, new PasswordHasher(config.passwordHashing), user, await upsertRole(tx, superAdmin)),
    );
    console.info(`Administrator ${values.email} (user ${id}, role ${superAdmin.name}) is ready.`);
  } finally {
    await db.close();
  }
}

createAdmin().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
