import type { Queryable } from '../db/database.ts';
import { MODULE, SUBSCRIBER_FIELDS, entityResource, type SubscriberStatus } from '../registry.ts';
import { insertRecord, insertRecords } from './seedRecords.ts';

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

/** The demo's companies, all in the first country; answers how many were written. */
export async function seedCompanies(
  tx: Queryable,
  random: () => number,
  countryId: number | undefined,
): Promise<number> {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  let written = 0;
  for (let index = 0; index < 100; index += 1) {
    const name = `${pick(COMPANY_WORDS)} ${pick(COMPANY_WORDS)} ${index + 1} Pvt Ltd`;
    const id = await insertRecord(tx, 'COMPANY', {
      name,
      iec: String(1_000_000_000 + index * 7919).slice(0, 10),
      city: 'Mumbai',
      state: 'Maharashtra',
      pincode: '400001',
      country_id: countryId,
      website: `https://company${index + 1}.example.com`,
    });
    if (id !== null) written += 1;
  }
  return written;
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
        [SUBSCRIBER_FIELDS.pointsBalance.field]: 0,
        executive_id: index % 5 === 0 ? refs.executiveId : null,
        // Kept from the subscriptions seeded next (demoSubscriptions.ts).
        [SUBSCRIBER_FIELDS.status.field]: 'none' satisfies SubscriberStatus,
      };
      rows.push(row);
    }
    await insertRecords(db, MODULE.subscribers, rows);
  }
}
