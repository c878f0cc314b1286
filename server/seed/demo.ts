import type { PasswordHasher } from '../modules/auth/passwords.ts';
import type { Database, Queryable } from '../db/database.ts';
import { startupTransaction } from '../db/startupLock.ts';
import { notify, recordLink } from '../modules/notifications/notify.ts';
import { escapeHtml } from '../http/html.ts';
import { MODULE, entityResource } from '../registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { STANDARD_COLUMNS } from '../modules/uploads/tradeColumns.ts';
import { seedRolesAndUsers } from './roles.ts';
import { seedSubscriptionHistory } from './demoSubscriptions.ts';

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
  ['India', 'IN', 'IND', 'asia', 'INR'],
  ['United States', 'US', 'USA', 'americas', 'USD'],
  ['China', 'CN', 'CHN', 'asia', 'CNY'],
  ['Germany', 'DE', 'DEU', 'europe', 'EUR'],
  ['United Arab Emirates', 'AE', 'ARE', 'asia', 'AED'],
  ['United Kingdom', 'GB', 'GBR', 'europe', 'GBP'],
  ['Japan', 'JP', 'JPN', 'asia', 'JPY'],
  ['Brazil', 'BR', 'BRA', 'americas', 'BRL'],
  ['South Africa', 'ZA', 'ZAF', 'africa', 'ZAR'],
  ['Australia', 'AU', 'AUS', 'oceania', 'AUD'],
  ['Singapore', 'SG', 'SGP', 'asia', 'SGD'],
  ['Bangladesh', 'BD', 'BGD', 'asia', 'BDT'],
  ['Vietnam', 'VN', 'VNM', 'asia', 'VND'],
  ['France', 'FR', 'FRA', 'europe', 'EUR'],
  ['Kenya', 'KE', 'KEN', 'africa', 'KES'],
];
const CHAPTERS: Array<[string, string, string]> = [
  ['09', 'Coffee, tea, mate and spices', '2'],
  ['10', 'Cereals', '2'],
  ['27', 'Mineral fuels and oils', '5'],
  ['30', 'Pharmaceutical products', '6'],
  ['39', 'Plastics and articles thereof', '7'],
  ['52', 'Cotton', '11'],
  ['61', 'Knitted apparel', '11'],
  ['71', 'Pearls, precious stones and metals', '14'],
  ['72', 'Iron and steel', '15'],
  ['84', 'Machinery and mechanical appliances', '16'],
  ['85', 'Electrical machinery and equipment', '16'],
  ['87', 'Vehicles other than railway', '17'],
];
const HEADINGS: Array<[string, string, string, string]> = [
  ['0904', 'Pepper', '09', 'KGS'],
  ['0910', 'Ginger, saffron, turmeric', '09', 'KGS'],
  ['1006', 'Rice', '10', 'TON'],
  ['2709', 'Crude petroleum oils', '27', 'LTR'],
  ['3004', 'Medicaments in measured doses', '30', 'NOS'],
  ['3901', 'Polymers of ethylene', '39', 'KGS'],
  ['5201', 'Cotton, not carded', '52', 'KGS'],
  ['6109', 'T-shirts, knitted', '61', 'NOS'],
  ['7102', 'Diamonds', '71', 'NOS'],
  ['7208', 'Flat-rolled iron', '72', 'TON'],
  ['8471', 'Computers', '84', 'NOS'],
  ['8517', 'Telephone sets', '85', 'NOS'],
  ['8703', 'Motor cars', '87', 'NOS'],
];
const PLANS: Array<[string, string, number, number, number, number]> = [
  ['Starter', 'STARTER', 4999, 30, 1000, 1],
  ['Professional', 'PRO', 19999, 90, 6000, 3],
  ['Business', 'BUSINESS', 49999, 180, 20000, 10],
  ['Enterprise', 'ENTERPRISE', 149999, 365, 100000, 50],
];
const FIRST = [
  'Aarav',
  'Diya',
  'Ishaan',
  'Kavya',
  'Rohan',
  'Meera',
  'Arjun',
  'Sara',
  'Vikram',
  'Ananya',
  'Kabir',
  'Priya',
  'Nikhil',
  'Zoya',
  'Rahul',
  'Tara',
];
const LAST = ['Sharma', 'Patel', 'Iyer', 'Khan', 'Reddy', 'Gupta', 'Mehta', 'Nair', 'Das', 'Singh', 'Joshi', 'Bose'];
const COMPANY_WORDS = [
  'Global',
  'Spice',
  'Textile',
  'Steel',
  'Agro',
  'Pharma',
  'Polymer',
  'Exim',
  'Overseas',
  'Traders',
  'Impex',
  'Industries',
];

/** Inserts a record of a manifest resource, keeping only the fields the manifest has. Returns its id, or null. */
export async function insertRecord(
  db: Queryable,
  resourceKey: string,
  values: Record<string, unknown>,
): Promise<number | null> {
  const resource = entityResource(resourceKey);
  if (!resource) return null;
  const names = Object.keys(values).filter((name) =>
    resource.entity.fields.some((field) => field.name === name && !field.system),
  );
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
export async function insertRecords(
  db: Queryable,
  resourceKey: string,
  rows: ReadonlyArray<Record<string, unknown>>,
): Promise<void> {
  const resource = entityResource(resourceKey);
  if (!resource || rows.length === 0) return;
  const fields = Object.keys(rows[0]!).flatMap((name) =>
    resource.entity.fields.filter((field) => field.name === name && !field.system),
  );
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
    const countryIds: number[] = [];
    for (const [name, iso2, iso3, region, currency] of COUNTRIES) {
      const id = await insertRecord(tx, 'COUNTRIES', { name, iso2, iso3, region, currency_code: currency });
      if (id !== null) countryIds.push(id);
      if (id !== null)
        await insertRecord(tx, 'COUNTRY', {
          country_id: id,
          import_available: true,
          export_available: iso2 !== 'KE',
          data_from: '2020-01',
          data_to: '2026-10',
          source: 'Customs',
        });
    }
    const chapterIds = new Map<string, number>();
    for (const [code, description, section] of CHAPTERS) {
      const id = await insertRecord(tx, 'HS_CODES', { code, description, section });
      if (id !== null) chapterIds.set(code, id);
    }
    for (const [hsCode, description, chapter, unit] of HEADINGS) {
      const id = await insertRecord(tx, 'CREATE_HS_CODE', {
        hs_code: hsCode,
        description,
        chapter_id: chapterIds.get(chapter),
        unit,
      });
      if (id !== null)
        await insertRecord(tx, 'CREATE_RELATED_PRODUCT', {
          hs_code_id: id,
          product_name: description,
          keywords: JSON.stringify(description.toLowerCase().split(/[ ,]+/)),
          description,
        });
    }
    const planIds: number[] = [];
    for (const [name, code, price, validity, points, maxUsers] of PLANS) {
      const id = await insertRecord(tx, MODULE.subscriptionPlans, {
        name,
        code,
        price,
        validity_days: validity,
        points,
        max_users: maxUsers,
        features: JSON.stringify(['search', 'download']),
        description: `${name} plan`,
      });
      if (id !== null) planIds.push(id);
    }
    for (const [index, column] of STANDARD_COLUMNS.entries()) {
      await insertRecord(tx, MODULE.dataFields, {
        column_name: column.name,
        label: column.name.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase()),
        data_type: column.type,
        trade_direction: 'both',
        is_required: column.required,
        display_order: index * 10,
        is_searchable: column.type === 'string',
      });
    }
    const salesId = userIds.get('sales@example.com')!;
    const executiveId = await insertRecord(tx, MODULE.executiveProfile, {
      user_id: salesId,
      employee_code: 'EXE-0001',
      region: 'west',
      target_subscribers: 250,
      mobile: '9876500001',
    });
    const companyIds: number[] = [];
    for (let index = 0; index < 100; index += 1) {
      const name = `${pick(COMPANY_WORDS)} ${pick(COMPANY_WORDS)} ${index + 1} Pvt Ltd`;
      const id = await insertRecord(tx, 'COMPANY', {
        name,
        iec: String(1_000_000_000 + index * 7919).slice(0, 10),
        city: 'Mumbai',
        state: 'Maharashtra',
        pincode: '400001',
        country_id: countryIds[0],
        website: `https://company${index + 1}.example.com`,
      });
      if (id !== null) companyIds.push(id);
    }
    const thisYear = new Date().getUTCFullYear();
    for (let index = 0; index < 50; index += 1) {
      await insertRecord(tx, 'VOUCHER', {
        code: `SAVE${String(index + 1).padStart(3, '0')}`,
        description: 'Demo voucher',
        discount_type: index % 2 ? 'flat' : 'percent',
        discount_value: index % 2 ? 500 + index * 10 : 5 + (index % 20),
        valid_from: `${thisYear}-01-01`,
        valid_to: `${thisYear + 1}-12-31`,
        usage_limit: 100,
        plan_id: pick(planIds),
      });
    }
    await seedSubscribers(tx, options.subscribers, random, {
      countryIds,
      planIds,
      executiveId,
      companyNames: companyIds.length,
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

/** The demo's subscribers, in one statement per thousand. */
export async function seedSubscribers(
  db: Queryable,
  count: number,
  random: () => number,
  refs: { countryIds: number[]; planIds: number[]; executiveId: number | null; companyNames: number },
): Promise<void> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return;
  const pick = <T>(items: readonly T[]): T | null =>
    items.length ? items[Math.floor(random() * items.length)]! : null;
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
        points_balance: 0,
        executive_id: index % 5 === 0 ? refs.executiveId : null,
        // Kept from the subscriptions seeded next (demoSubscriptions.ts).
        status: 'none',
      };
      rows.push(row);
    }
    await insertRecords(db, MODULE.subscribers, rows);
  }
}
