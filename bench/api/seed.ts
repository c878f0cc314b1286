/**
 * Benchmark data: subscribers that look like a real customer base, so that the trigram index meets realistic
 * selectivity. Names, companies, e-mail domains and mobiles are drawn from pools large enough that a fragment a
 * user would type matches tens of rows, not one and not thousands.
 */
import type { Queryable } from '../../server/db/database.ts';
import { MODULE, entityResource } from '../../server/registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { insertRecord, insertRecords, seededRandom } from '../../server/seed/seedRecords.ts';
import { recordClockRound } from '../../server/modules/subscribers/subscriptionClock.ts';

const FIRST = (
  'Aarav Aditi Aditya Akash Amit Anaya Ananya Anil Anita Anjali Ankit Arjun Arun Asha Ayesha Bhavna Chetan Deepak Deepa Dev Diya ' +
  'Divya Farhan Gaurav Geeta Harish Harsh Isha Ishaan Jatin Jaya Karan Kavya Kiran Krishna Kunal Lakshmi Madhav Mahesh Manish ' +
  'Meera Mohit Nandini Naveen Neha Nikhil Nisha Omkar Pankaj Pooja Pranav Preeti Priya Rahul Rajesh Rakesh Ravi Rekha Ritu Rohan ' +
  'Sachin Sahil Sandeep Sanjay Sara Seema Shreya Siddharth Sneha Sonia Sunil Suresh Swati Tanvi Tara Tarun Uday Usha Varun Vikram ' +
  'Vinod Vishal Yash Zoya Ahmed Fatima Imran Salman Sana Joseph Maria Thomas Anne Wei Li Chen Hiroshi Yuki Hans Anna Pierre Sophie ' +
  'James Emma Oliver Grace Carlos Lucia Mohammed Aisha Omar Leila Daniel Rachel Kwame Amara'
).split(' ');
const LAST = (
  'Sharma Patel Iyer Khan Reddy Gupta Mehta Nair Das Singh Joshi Bose Agarwal Banerjee Chatterjee Chopra Desai Dutta Gill Goyal ' +
  'Jain Kapoor Kulkarni Kumar Malhotra Mishra Mukherjee Naidu Pandey Pillai Rao Saxena Sethi Shah Shetty Sinha Srinivasan Tiwari ' +
  'Trivedi Varma Verma Yadav Bhatt Chauhan Dubey Ghosh Hegde Kaur Menon Mistry Modi Nayak Pathak Prasad Rajan Rathore Sen Subramanian ' +
  'Thakur Venkatesh Wagh Ansari Qureshi Siddiqui Fernandes DSouza Pereira Mathew Thomas Wang Zhang Liu Tanaka Sato Mueller Schmidt ' +
  'Dubois Martin Smith Jones Brown Wilson Garcia Lopez Rossi Haddad Mensah Okafor Cohen Levi'
).split(' ');
const COMPANY_PREFIX = (
  'Shree Sri Sunrise Bharat Global Royal Apex Prime Galaxy Vision Crystal Golden Silver Diamond Lotus Ganesh Laxmi Sai Om Jai ' +
  'Ambika Balaji Krishna Mahalaxmi Navkar Orient Pacific Atlantic Everest Himalaya Ganga Kaveri Narmada Indus Deccan Coastal ' +
  'Metro Star Supreme United Universal Pioneer Alpha Omega Zenith Summit Horizon Eastern Western Northern Southern Trident ' +
  'Vertex Vardhman Mehta Patel Agarwal Reliable Dynamic Excel'
).split(' ');
const COMPANY_CORE = (
  'Spices Textiles Polymers Agro Steel Pharma Exim Impex Overseas Chemicals Foods Cotton Garments Metals Plastics Rubber Leather ' +
  'Ceramics Granite Marble Paper Packaging Engineering Auto Components Electricals Electronics Machinery Tools Hardware Fabrics ' +
  'Yarns Seeds Grains Rice Tea Coffee Cashew Fisheries Marine Dyes Pigments Fertilizers Minerals Alloys Castings Forgings ' +
  'Pipes Tubes Wires Cables Glass Furniture Handicrafts Jewels Gems Herbals Organics Logistics Shipping'
).split(' ');
const COMPANY_SUFFIX = [
  'Pvt Ltd',
  'Pvt Ltd',
  'Private Limited',
  'LLP',
  'Exports',
  'Enterprises',
  'International',
  'Industries',
  'Trading Co',
  'Corporation',
  'Ltd',
];
const MAIL_DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'yahoo.co.in',
  'outlook.com',
  'rediffmail.com',
  'hotmail.com',
];
const COUNTRIES: Array<[string, string, string]> = [
  ['India', 'IN', 'IND'],
  ['United States', 'US', 'USA'],
  ['China', 'CN', 'CHN'],
  ['Germany', 'DE', 'DEU'],
  ['United Arab Emirates', 'AE', 'ARE'],
  ['United Kingdom', 'GB', 'GBR'],
  ['Japan', 'JP', 'JPN'],
  ['Brazil', 'BR', 'BRA'],
  ['Singapore', 'SG', 'SGP'],
  ['Bangladesh', 'BD', 'BGD'],
];
const PLANS: Array<[string, string, number, number, number]> = [
  ['Starter', 'STARTER', 4999, 30, 1000],
  ['Professional', 'PRO', 19999, 90, 6000],
  ['Business', 'BUSINESS', 49999, 180, 20000],
  ['Enterprise', 'ENTERPRISE', 149999, 365, 100000],
];
const STATUSES = ['none', 'trial', 'active', 'active', 'expiring', 'expired', 'cancelled'];

export interface BenchData {
  /** What the list scenario searches for: a company-name fragment as an administrator would type it. */
  search: string;
  /** The subscriber the get-by-id scenario reads. */
  subscriberId: number;
  /** Every distinct fragment of the same shape, for the scenario that searches for something new each time. */
  searches: string[];
}

/** Countries, plans and `count` subscribers, deterministic for a given count. */
export async function seedBenchData(db: Queryable, count: number): Promise<BenchData> {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) throw new Error('The manifest has no SUBSCRIBERS resource.');
  const random = seededRandom(42);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const countryIds: number[] = [];
  for (const [name, iso2, iso3] of COUNTRIES) {
    const id = await insertRecord(db, 'COUNTRIES', { name, iso2, iso3, region: 'asia', currency_code: 'USD' });
    if (id !== null) countryIds.push(id);
  }
  const planIds: number[] = [];
  for (const [name, code, price, validity, points] of PLANS) {
    const id = await insertRecord(db, MODULE.subscriptionPlans, {
      name,
      code,
      price,
      validity_days: validity,
      points,
      max_users: 1,
      features: '[]',
      description: `${name} plan`,
    });
    if (id !== null) planIds.push(id);
  }
  const emails = new Set<string>();
  const companyNames: string[] = [];
  for (let start = 0; start < count; start += 1000) {
    const rows: Array<Record<string, unknown>> = [];
    for (let index = start; index < Math.min(count, start + 1000); index += 1) {
      const first = pick(FIRST);
      const last = pick(LAST);
      const prefix = pick(COMPANY_PREFIX);
      const core = pick(COMPANY_CORE);
      const company = `${prefix} ${core} ${pick(COMPANY_SUFFIX)}`;
      const companyDomain = `${prefix}${core}.${pick(['com', 'in', 'co.in'])}`.toLowerCase();
      const local = pick([
        `${first}.${last}`,
        `${first}${last[0]}`,
        `${first[0]}${last}`,
        `${first}_${last}`,
      ]).toLowerCase();
      let email = `${local}@${random() < 0.5 ? companyDomain : pick(MAIL_DOMAINS)}`;
      for (let suffix = 2; emails.has(email); suffix += 1) email = email.replace(/^([^@]*?)(\d*)@/, `$1${suffix}@`);
      emails.add(email);
      companyNames.push(company);
      rows.push({
        name: `${first} ${last}`,
        email,
        mobile: `${pick(['6', '7', '8', '9'])}${String(Math.floor(random() * 1e9)).padStart(9, '0')}`,
        company_name: company,
        country_id: pick(countryIds),
        plan_id: random() < 0.7 ? pick(planIds) : null,
        points_balance: Math.floor(random() * 50_000),
        executive_id: null,
        status: pick(STATUSES),
      });
    }
    await insertRecords(db, MODULE.subscribers, rows);
  }
  // "sunrise poly": the first word of a company and the start of the second, the way people look a company up.
  const [prefix, core] = companyNames[Math.floor(count * 0.777)]!.toLowerCase().split(' ');
  const [sample] = await db.query<{ id: number }>(
    `SELECT id FROM ${quoted(subscribers.entity.table)} ORDER BY id LIMIT 1 OFFSET $1`,
    [Math.floor(count / 20)],
  );
  const searches = [
    ...new Set(
      companyNames.map((name) => {
        const [first, second] = name.toLowerCase().split(' ');
        return `${first} ${second!.slice(0, 4)}`;
      }),
    ),
  ].sort();
  // The seeded statuses stand: a clock's first round would move every subscriber to the status of their subscriptions
  // (they have none here), 100,000 changes through the write path in the middle of the measurements.
  const [clock] = await db.query<{ today: string }>('SELECT current_date::text AS today');
  await recordClockRound(db, clock!.today);
  return { search: `${prefix} ${core!.slice(0, 4)}`, subscriberId: sample!.id, searches };
}
