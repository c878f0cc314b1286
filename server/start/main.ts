import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { buildApp } from '../app.ts';
import { PasswordHasher } from '../modules/auth/passwords.ts';
import type { ServerConfig } from '../config.ts';
import { dataFolderOfServer, listenAddress, loadConfig, openingAddress } from './loadConfig.ts';
import { ensureConsoleBuilt } from '../console/consoleBuild.ts';
import { DataFolderInUse, lockDataFolder } from './dataFolderLock.ts';
import { migrate, MigrationRefused } from '../db/migrate.ts';
import { DATA_SHAPE } from '../registry.ts';
import { openDatabase } from '../db/open.ts';
import { bindPort, PortUnavailable } from '../http/boundPort.ts';
import { DEMO_USERS } from '../seed/roles.ts';
import { seedDemoData } from '../seed/demo.ts';
import { openStorage } from '../modules/uploads/openStorage.ts';
import { prepareFileReader } from '../modules/imports/readInWorker.ts';
import { prepareTradeFileReader } from '../modules/uploads/importRows.ts';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);

/**
 * `npm start`: the port and the data folder's lock first, so a second start on either stops before it opens or
 * changes anything (the port first: a port in use stops it before it creates anything in the folder); then
 * migrations, demo data (not in production), the console build, and the API and console.
 */
async function main(): Promise<void> {
  const address = listenAddress();
  const port = await bindPort(address.port, address.host);
  const folder = dataFolderOfServer();
  if (folder) await lockDataFolder(folder, 'the server');
  const config = loadConfig();
  const db = await openDatabase(config);
  const { applied } = await migrate(db, { manifestShape: DATA_SHAPE });
  if (applied.length) console.info(`Applied migrations: ${applied.join(', ')}`);
  if (!config.production) {
    const seeded = await seedDemoData(db, new PasswordHasher(config.passwordHashing));
    if (seeded) console.info('Seeded the demo data.');
  }
  const serveConsole = process.argv.includes('--api-only')
    ? null
    : await ensureConsoleBuilt(ROOT, (line) => console.info(line), { devMailbox: !config.production });
  const storage = await openStorage(config, join(config.dataDir ?? resolve('.data'), 'files'));
  const app = await buildApp({
    config,
    db,
    storage,
    logger: { level: config.logLevel, format: config.logFormat },
    consoleDir: serveConsole,
    serverFactory: port.serverFactory,
    printMail: (line) => console.info(line),
  });
  // SIGTERM (or SIGINT): /readyz answers 503 and, for STOP_DRAIN_SECONDS, requests are still served, each closing its
  // connection, while the load balancer takes this instance out; then the port takes no new connection and answers
  // the requests it accepted, the app closes (the upload import in flight and e-mail sends finish, queued imports stay
  // waiting for any instance), then the database. Bounded: what has not finished STOP_GRACE_SECONDS after the drain is cut off, and
  // an import cut off is rolled back and taken up again.
  const stop = async () => {
    app.stopping = true;
    port.drain();
    if (config.stopDrainSeconds > 0) {
      console.info(
        `Stopping: /readyz answers 503; serving for ${config.stopDrainSeconds} s more (STOP_DRAIN_SECONDS) while the load balancer takes this instance out.`,
      );
      await sleep(config.stopDrainSeconds * 1000);
    }
    setTimeout(() => {
      console.error(
        `Stopping took over ${config.stopGraceSeconds} s (STOP_GRACE_SECONDS): exiting with work unfinished.`,
      );
      process.exit(1);
    }, config.stopGraceSeconds * 1000).unref();
    await port.close();
    await app.close();
    await db.close();
    process.exit(0);
  };
  const stopOnSignal = () => {
    stop().catch((error: unknown) => {
      console.error('Stopping failed:', error);
      process.exit(1);
    });
  };
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);
  await app.ready();
  port.serve();
  Promise.all([prepareFileReader(), prepareTradeFileReader()]).catch((error: unknown) =>
    console.error('Preparing the readers of import and trade files failed (the first file tries again):', error),
  );
  const url = openingAddress(config);
  console.info(
    `\n${serveConsole ? 'Console and API' : 'API'} at ${url}  (API base ${url}/api/v1, contract ${url}/api/v1/openapi.json)`,
  );
  console.info(
    `Database: ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${join(config.dataDir ?? '.data', 'pglite')}`}`,
  );
  console.info(
    `Uploaded files: ${config.s3 ? `bucket ${config.s3.bucket}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''} (S3_BUCKET)` : `folder ${join(config.dataDir ?? '.data', 'files')}`}`,
  );
  console.info(mailLine(config, url, serveConsole !== null));
  if (config.production) {
    console.info(
      'Production mode: no demo users. Create the first administrator with npm run create-admin -- --email ... --password ...',
    );
  } else {
    console.info('Demo users (docs/demo-data.md):');
    for (const user of DEMO_USERS) console.info(`  ${user.role.padEnd(16)} ${user.email.padEnd(24)} ${user.password}`);
  }
}

/** Where e-mail goes, said at start: a newcomer without a mail server learns where the reset and verify links are. */
function mailLine(config: ServerConfig, url: string, servesConsole: boolean): string {
  if (config.mail.smtpUrl)
    return `E-mail: sent through ${new URL(config.mail.smtpUrl).host} (SMTP_URL) from ${config.mail.from}`;
  if (config.production)
    return 'E-mail: NOT SENT, SMTP_URL is not set. Password-reset and verification e-mails wait in the outbox until a server with SMTP_URL runs.';
  const mailbox = servesConsole
    ? `${url}/dev/mailbox`
    : "the console's /dev/mailbox (npm run dev: http://localhost:5173/dev/mailbox)";
  return `E-mail: not sent (no SMTP_URL); each message's links are printed here and listed in the development mailbox, ${mailbox}`;
}

main().catch((error: unknown) => {
  console.error(
    error instanceof DataFolderInUse || error instanceof PortUnavailable || error instanceof MigrationRefused
      ? error.message
      : error,
  );
  process.exit(1);
});
