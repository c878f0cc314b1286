import { parseArgs } from 'node:util';
import { PasswordHasher } from '../auth/passwords.ts';
import { loadConfig } from '../config.ts';
import { migrate } from '../db/migrate.ts';
import { openDatabase } from '../db/open.ts';
import { formats } from '../../validation/formats.ts';
import { upsertRole, upsertUser, SEED_ROLES } from '../seed/roles.ts';

/** npm run create-admin -- --email a@b.c --password '...' [--first-name A --last-name B]: the first administrator in production. */
async function createAdmin(): Promise<void> {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, 'first-name': { type: 'string', default: 'Admin' }, 'last-name': { type: 'string', default: 'User' } },
  });
  if (!values.email || !formats.email(values.email)) throw new Error('Give a valid --email.');
  if (!values.password || !formats.password(values.password)) throw new Error('Give a --password of at least 8 characters with a letter, a digit and a special character.');
  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    await migrate(db);
    const superAdmin = SEED_ROLES[0]!;
    const roleId = await upsertRole(db, superAdmin);
    const id = await upsertUser(db, new PasswordHasher(config.passwordHashing), { email: values.email, password: values.password, firstName: values['first-name'], lastName: values['last-name'], role: superAdmin.name }, roleId);
    console.info(`Administrator ${values.email} (user ${id}, role ${superAdmin.name}) is ready.`);
  } finally {
    await db.close();
  }
}

createAdmin().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
