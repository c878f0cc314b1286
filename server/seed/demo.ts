import type { PasswordHasher } from '../modules/auth/passwords.ts';
import type { Database, Queryable } from '../db/database.ts';
import { startupTransaction } from '../db/startupLock.ts';
import { notify } from '../modules/notifications/notify.ts';
import { MODULE, entityResource, quoted } from '../registry.ts';
import { STANDARD_COLUMNS } from '../modules/uploads/tradeColumns.ts';
import { seedRolesAndUsers } from './roles.ts';

/** A small deterministic generator (mulberry32), so every demo start produces the same data. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COUNTRIES: Array<[string, string, string, string, string]> = [
  ['India', 'IN', 'IND', 'asia', 'INR'], ['United States', 'US', 'USA', 'americas', 'USD'], ['China', 'CN', 'CHN', 'asia', 'CNY'],
  ['Germany', 'DE', 'DEU', 'europe', 'EUR'], ['United Arab Emirates', 'AE', 'ARE', 'asia', 'AED'], ['United Kingdom', 'GB', 'GBR', 'europe', 'GBP'],
  ['Japan', 'JP', 'JPN', 'asia', 'JPY'], ['Brazil', 'BR', 'BRA', 'americas', 'BRL'], ['South Africa', 'ZA', 'ZAF', 'africa', 'ZAR'],
  ['Australia', 'AU', 'AUS', 'oceania', 'AUD'], ['Singapore', 'SG', 'SGP', 'asia', 'SGD'], ['Bangladesh', 'BD', 'BGD', 'asia', 'BDT'],
  ['Vietnam', 'VN', 'VNM', 'asia', 'VND'], ['France', 'FR', 'FRA', 'europe', 'EUR'], ['Kenya', 'KE', 'KEN', 'africa', 'KES'],
];
const CHAPTERS: Array<[string, string, string]> = [
  ['09', 'Coffee, tea, mate and spices', '2'], ['10', 'Cereals', '2'], ['27', 'Mineral fuels and oils', '5'], ['30', 'Pharmaceutical products', '6'],
  ['39', 'Plastics and articles thereof', '7'], ['52', 'Cotton', '11'], ['61', 'Knitted apparel', '11'], ['71', 'Pearls, precious stones and metals', '14'],
  ['72', 'Iron and steel', '15'], ['84', 'Machinery and mechanical appliances', '16'], ['85', 'Electrical machinery and equipment', '16'], ['87', 'Vehicles other than railway', '17'],
];
const HEADINGS: Array<[string, string, string, string]> = [
  ['0904', 'Pepper', '09', 'KGS'], ['0910', 'Ginger, saffron, turmeric', '09', 'KGS'], ['1006', 'Rice', '10', 'TON'], ['2709', 'Crude petroleum oils', '27', 'LTR'],
  ['3004', 'Medicaments in measured doses', '30', 'NOS'], ['3901', 'Polymers of ethylene', '39', 'KGS'], ['5201', 'Cotton, not carded', '52', 'KGS'],
  ['6109', 'T-shirts, knitted', '61', 'NOS'], ['7102', 'Diamonds', '71', 'NOS'], ['7208', 'Flat-rolled iron', '72', 'TON'], ['8471', 'Computers', '84', 'NOS'],
  ['8517', 'Telephone sets', '85', 'NOS'], ['8703', 'Motor cars', '87', 'NOS'],
];
const PLANS: Array<[string, string, number, number, number, number]> = [
  ['Starter', 'STARTER', 4999, 30, 1000, 1], ['Professional', 'PRO', 19999, 90, 6000, 3], ['Business', 'BUSINESS', 49999, 180, 20000, 10], ['Enterprise', 'ENTERPRISE', 149999, 365, 100000, 50],
];
const FIRST = ['Aarav', 'Diya', 'Ishaan', 'Kavya', 'Rohan', 'Meera', 'Arjun', 'Sara', 'Vikram', 'Ananya', 'Kabir', 'Priya', 'Nikhil', 'Zoya', 'Rahul', 'Tara'];
const LAST = ['Sharma', 'Patel', 'Iyer', 'Khan', 'Reddy', 'Gupta', 'Mehta', 'Nair', 'Das', 'Singh', 'Joshi', 'Bose'];
const COMPANY_WORDS = ['Global', 'Spice', 'Textile', 'Steel', 'Agro', 'Pharma', 'Polymer', 'Exim', 'Overseas', 'Traders', 'Impex', 'Industries'];

/** Inserts a record of a manifest resource, keeping only the fields the manifest has. Returns its id, or null. */
export async function insertRecord(db: Queryable, resourceKey: string, values: Record<string, unknown>): Promise<number | null> {
  const resource = entityResource(resourceKey);
  if (!resource) return null;
  const names = Object.keys(values).filter((name) => resource.entity.fields.some((field) => field.name === name && !field.system));
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO ${quoted(resource.entity.table)} (${names.map(quoted).join(', ')}) VALUES (${names.map((_, index) => `$${index + 1}`).join(', ')}) RETURNING id`,
    names.map((name) => values[name]),
  );
  return row?.id ?? null;
}

/**
 * Many records of one resource in a single statement (one array parameter per column), for bulk seeding. Every row
 * has the keys of the first; text and bigint columns only (what the seeds write).
 */
export async function insertRecords(db: Queryable, resourceKey: string, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const resource = entityResource(resourceKey);
  if (!resource || rows.length === 0) return;
  const fields = Object.keys(rows[0]!).flatMap((name) => resource.entity.fields.filter((field) => field.name === name && !field.system));
  await db.query(
    `INSERT INTO ${quoted(resource.entity.table)} (${fields.map((field) => quoted(field.name)).join(', ')})
     SELECT * FROM unnest(${fields.map((field, index) => `$${index + 1}::${field.sqlType === 'bigint' ? 'bigint' : 'text'}[]`).join(', ')})`,
    fields.map((field) => rows.map((row) => row[field.name] ?? null)),
  );
}

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
export async function seedDemoData(db: Database, passwords: PasswordHasher, options: DemoSeedOptions = { subscribers: 1000 }): Promise<boolean> {
  return startupTransaction(db, async (tx) => {
    if (await alreadySeeded(tx)) return false;
    const random = seededRandom(20_261_121);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
    const userIds = await seedRolesAndUsers(tx, passwords);
    const countryIds: number[] = [];
    for (const [name, iso2, iso3, region, currency] of COUNTRIES) {
      const id = await insertRecord(tx, 'COUNTRIES', { name, iso2, iso3, region, currency_code: currency });
      if (id !== null) countryIds.push(id);
      if (id !== null) await insertRecord(tx, 'COUNTRY', { country_id: id, import_available: true, export_available: iso2 !== 'KE', data_from: '2020-01', data_to: '2026-10', source: 'Customs' });
    }
    const chapterIds = new Map<string, number>();
    for (const [code, description, section] of CHAPTERS) {
      const id = await insertRecord(tx, 'HS_CODES', { code, description, section });
      if (id !== null) chapterIds.set(code, id);
    }
    for (const [hsCode, description, chapter, unit] of HEADINGS) {
      const id = await insertRecord(tx, 'CREATE_HS_CODE', { hs_code: hsCode, description, chapter_id: chapterIds.get(chapter), unit });
      if (id !== null) await insertRecord(tx, 'CREATE_RELATED_PRODUCT', { hs_code_id: id, product_name: description, keywords: JSON.stringify(description.toLowerCase().split(/[ ,]+/)), description });
    }
    const planIds: number[] = [];
    for (const [name, code, price, validity, points, maxUsers] of PLANS) {
      const id = await insertRecord(tx, MODULE.plans, { name, code, price, validity_days: validity, points, max_users: maxUsers, features: JSON.stringify(['search', 'download']), description: `${name} plan` });
      if (id !== null) planIds.push(id);
    }
    for (const [index, column] of STANDARD_COLUMNS.entries()) {
      await insertRecord(tx, MODULE.dataFields, {
        column_name: column.name, label: column.name.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase()), data_type: column.type,
        trade_direction: 'both', is_required: column.required, display_order: index * 10, is_searchable: column.type === 'string',
      });
    }
    const salesId = userIds.get('sales@example.com')!;
    const executiveId = await insertRecord(tx, MODULE.executiveProfile, { user_id: salesId, employee_code: 'EXE-0001', region: 'west', target_subscribers: 250, mobile: '9876500001' });
    const companyIds: number[] = [];
    for (let index = 0; index < 100; index += 1) {
      const name = `${pick(COMPANY_WORDS)} ${pick(COMPANY_WORDS)} ${index + 1} Pvt Ltd`;
      const id = await insertRecord(tx, 'COMPANY', {
        name, iec: String(1_000_000_000 + index * 7919).slice(0, 10), city: 'Mumbai', state: 'Maharashtra', pincode: '400001', country_id: countryIds[0], website: `https://company${index + 1}.example.com`,
      });
      if (id !== null) companyIds.push(id);
    }
    for (let index = 0; index < 50; index += 1) {
      await insertRecord(tx, 'VOUCHER', {
        code: `SAVE${String(index + 1).padStart(3, '0')}`, description: 'Demo voucher', discount_type: index % 2 ? 'flat' : 'percent',
        discount_value: index % 2 ? 500 + index * 10 : 5 + (index % 20), valid_from: '2026-01-01', valid_to: '2026-12-31', usage_limit: 100, plan_id: pick(planIds),
      });
    }
    await seedSubscribers(tx, options.subscribers, random, { countryIds, planIds, executiveId, companyNames: companyIds.length });
    await seedSubscriptionHistory(tx, random);
    const adminId = userIds.get('admin@example.com')!;
    for (const message of ['Welcome to the <b>trade-data</b> admin console.', 'Upload of <b>india-exports-2026-09.csv</b> is processed.', 'A subscriber asked for a plan upgrade.']) {
      await notify(tx, adminId, message);
    }
    return true;
  });
}

/** The demo's subscribers, in one statement per thousand. */
export async function seedSubscribers(
  db: Queryable,
  count: number,
  random: () => number,
  refs: { countryIds: number[]; planIds: number[]; executiveId: number | null; companyNames: number },
): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return;
  const pick = <T>(items: readonly T[]): T | null => (items.length ? items[Math.floor(random() * items.length)]! : null);
  for (let start = 0; start < count; start += 1000) {
    const rows: Array<Record<string, unknown>> = [];
    for (let index = start; index < Math.min(count, start + 1000); index += 1) {
      const first = pick(FIRST)!;
      const last = pick(LAST)!;
      const row: Record<string, unknown> = {
        name: `${first} ${last}`,
        email: `${first}.${last}.${index + 1}@example.com`.toLowerCase(),
        mobile: `9${String(100_000_000 + index).padStart(9, '0')}`,
        company_name: `${pick(COMPANY_WORDS)} ${pick(COMPANY_WORDS)} ${index % 997}`,
        country_id: pick(refs.countryIds),
        plan_id: random() < 0.7 ? pick(refs.planIds) : null,
        points_balance: 0,
        executive_id: index % 5 === 0 ? refs.executiveId : null,
        status: pick(['trial', 'subscribed', 'expired']),
      };
      // The manifest's rule: a subscribed subscriber has a plan.
      if (row.status === 'subscribed' && row.plan_id === null) row.status = 'trial';
      rows.push(row);
    }
    await insertRecords(db, MODULE.subscribers, rows);
  }
}

const DAY_MS = 86_400_000;

/**
 * A year of history for the subscribed demo subscribers: the plan bought, points consumed on searches and
 * downloads, the odd top-up, each with the balance after it, and the subscriber's balance equal to the last one,
 * so the subscriber details and the admin report have something true to show.
 */
async function seedSubscriptionHistory(db: Queryable, random: () => number): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  const plans = entityResource(MODULE.plans);
  if (!subscribers || !plans) return;
  const planRows = await db.query<{ id: number; points: number; price: number; validity_days: number }>(
    `SELECT id, points, price, validity_days FROM ${quoted(plans.entity.table)}`,
  );
  const planById = new Map(planRows.map((plan) => [Number(plan.id), plan]));
  const buyers = await db.query<{ id: number; plan_id: number }>(
    `SELECT id, plan_id FROM ${quoted(subscribers.entity.table)} WHERE plan_id IS NOT NULL AND status = 'subscribed' ORDER BY id`,
  );
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const purchases = buyers.flatMap((buyer) => {
    const plan = planById.get(Number(buyer.plan_id));
    if (!plan) return [];
    const startsAt = today - (10 + Math.floor(random() * 340)) * DAY_MS;
    return [{ subscriber: Number(buyer.id), plan, startsAt }];
  });
  if (purchases.length === 0) return;
  const inserted = await db.query<{ id: number; subscriber_id: number }>(
    `INSERT INTO subscriber_subscriptions (subscriber_id, plan_id, starts_on, ends_on, points, price, created_at)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::date[], $4::date[], $5::bigint[], $6::float8[], $7::timestamptz[])
     RETURNING id, subscriber_id`,
    [
      purchases.map((purchase) => purchase.subscriber),
      purchases.map((purchase) => purchase.plan.id),
      purchases.map((purchase) => isoDate(purchase.startsAt)),
      purchases.map((purchase) => isoDate(purchase.startsAt + purchase.plan.validity_days * DAY_MS)),
      purchases.map((purchase) => purchase.plan.points),
      purchases.map((purchase) => purchase.plan.price),
      purchases.map((purchase) => new Date(purchase.startsAt).toISOString()),
    ],
  );
  const subscriptionOf = new Map(inserted.map((row) => [Number(row.subscriber_id), Number(row.id)]));
  const ledger: Array<{ subscriber: number; kind: string; points: number; amount: number; balance: number; note: string; subscription: number | null; at: number }> = [];
  const balances = new Map<number, number>();
  for (const purchase of purchases) {
    let balance = Number(purchase.plan.points);
    ledger.push({ subscriber: purchase.subscriber, kind: 'subscription', points: balance, amount: Number(purchase.plan.price), balance, note: 'Plan purchase', subscription: subscriptionOf.get(purchase.subscriber) ?? null, at: purchase.startsAt });
    let at = purchase.startsAt;
    while ((at += (5 + Math.floor(random() * 25)) * DAY_MS) < today) {
      if (random() < 0.15) {
        const points = 500 * (1 + Math.floor(random() * 4));
        balance += points;
        ledger.push({ subscriber: purchase.subscriber, kind: 'top_up', points, amount: points * 2, balance, note: 'Top-up', subscription: null, at });
      }
      const spent = Math.min(balance, 20 + Math.floor(random() * 180));
      if (spent <= 0) continue;
      balance -= spent;
      ledger.push({ subscriber: purchase.subscriber, kind: 'consumption', points: -spent, amount: 0, balance, note: random() < 0.5 ? 'Shipment search' : 'Data download', subscription: null, at });
    }
    balances.set(purchase.subscriber, balance);
  }
  await db.query(
    `INSERT INTO points_ledger (subscriber_id, kind, points, amount, balance_after, note, subscription_id, created_at)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::float8[], $5::bigint[], $6::text[], $7::bigint[], $8::timestamptz[])`,
    [
      ledger.map((entry) => entry.subscriber),
      ledger.map((entry) => entry.kind),
      ledger.map((entry) => entry.points),
      ledger.map((entry) => entry.amount),
      ledger.map((entry) => entry.balance),
      ledger.map((entry) => entry.note),
      ledger.map((entry) => entry.subscription),
      ledger.map((entry) => new Date(entry.at).toISOString()),
    ],
  );
  await db.query(
    `UPDATE ${quoted(subscribers.entity.table)} AS s SET points_balance = v.balance
       FROM unnest($1::bigint[], $2::bigint[]) AS v(id, balance) WHERE s.id = v.id`,
    [[...balances.keys()], [...balances.values()]],
  );
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
