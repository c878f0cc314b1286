import type { PasswordHasher } from '../modules/auth/passwords.ts';
import type { Database, Queryable } from '../db/database.ts';
import { startupTransaction } from '../db/startupLock.ts';
import { notify, recordLink } from '../modules/notifications/store.ts';
import { escapeHtml } from '../http/html.ts';
import { MODULE, VOUCHER_FIELDS, entityResource } from '../registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { seedRolesAndUsers } from './roles.ts';
import { seedSubscriptionHistory } from './demoSubscriptions.ts';
import { insertRecord, seededRandom } from './seedRecords.ts';
import { seedReferenceData } from './demoReferenceData.ts';
import { seedCompanies, seedSubscribers } from './demoSubscribers.ts';

/** Has the demo data been seeded already? (The admin user exists: it is written in the same transaction as the rest.) */
async function alreadySeeded(db: Queryable): Promise<boolean> {
  const [row] = await db.query("SELECT 1 FROM users WHERE email = 'admin@example.com'");
  return row !== undefined;
}

export interface DemoSeedOptions {
  subscribers: number;
}

/**
 * Deterministic demo data for `npm start` (docs/demo-data.md). Runs once per database: one transaction under the
 * start-up lock, so instances starting together seed it once, and a start killed mid-seed leaves nothing behind
 * (the next start seeds it all).
 */
export async function seedDemoData(
  db: Database,
  passwords: PasswordHasher,
  options: DemoSeedOptions = { subscribers: 1000 },
): Promise<boolean> {
  return startupTransaction(db, async (tx) => {
    if (await alreadySeeded(tx)) return false;
    const random = seededRandom(20_261_121);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const userIds = await seedRolesAndUsers(tx, passwords);
    const { countryIds, planIds } = await seedReferenceData(tx);
    const salesId = userIds.get('sales@example.com')!;
    const executiveId = await insertRecord(tx, MODULE.executiveProfile, {
      user_id: salesId,
      employee_code: 'EXE-0001',
      region: 'west',
      target_subscribers: 250,
      mobile: '9876500001',
    });
    const companies = await seedCompanies(tx, random, countryIds[0]);
    const thisYear = new Date().getUTCFullYear();
    for (let index = 0; index < 50; index += 1) {
      const { code, discountType, discountValue, validFrom, validTo, usageLimit, plan } = VOUCHER_FIELDS;
      await insertRecord(tx, MODULE.vouchers, {
        [code.field]: `SAVE${String(index + 1).padStart(3, '0')}`,
        [discountType.field]: index % 2 ? 'flat' : 'percent',
        [discountValue.field]: index % 2 ? 500 + index * 10 : 5 + (index % 20),
        [validFrom.field]: `${thisYear}-01-01`,
        [validTo.field]: `${thisYear + 1}-12-31`,
        [usageLimit.field]: 100,
        [plan.field]: pick(planIds),
      });
    }
    await seedSubscribers(tx, options.subscribers, random, {
      countryIds,
      planIds,
      executiveId,
      companyNames: companies,
    });
    await seedSubscriptionHistory(tx, random);
    const adminId = userIds.get('admin@example.com')!;
    const subscribersResource = entityResource(MODULE.subscribers);
    for (const message of [
      'Welcome to the <b>trade-data</b> admin console.',
      'Upload of <b>india-exports-2026-09.csv</b> is processed.',
    ]) {
      await notify(tx, adminId, message);
    }
    const [asker] = subscribersResource
      ? await tx.query<{ id: number; name: string }>(
          `SELECT id, "name" FROM ${quoted(subscribersResource.entity.table)} ORDER BY id LIMIT 1`,
        )
      : [];
    if (asker)
      await notify(
        tx,
        adminId,
        `<b>${escapeHtml(asker.name)}</b> asked for a plan upgrade.`,
        recordLink(MODULE.subscribers, 'SUBSCRIBER_DETAIL', Number(asker.id)),
      );
    return true;
  });
}
