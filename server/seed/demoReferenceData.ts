import type { Queryable } from '../db/database.ts';
import { DATA_COLUMN_FIELDS, MODULE } from '../registry.ts';
import { STANDARD_COLUMNS } from '../modules/uploads/tradeColumns.ts';
import { insertRecord } from './seedRecords.ts';

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

/** The demo's countries, HS codes, plans and data fields; answers the ids of the countries and plans. */
export async function seedReferenceData(tx: Queryable): Promise<{ countryIds: number[]; planIds: number[] }> {
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
      [DATA_COLUMN_FIELDS.columnName.field]: column.name,
      label: column.name.replace(/_/g, ' ').replace(/^./, (first) => first.toUpperCase()),
      [DATA_COLUMN_FIELDS.dataType.field]: column.type,
      [DATA_COLUMN_FIELDS.tradeDirection.field]: 'both',
      [DATA_COLUMN_FIELDS.isRequired.field]: column.required,
      display_order: index * 10,
      is_searchable: column.type === 'string',
    });
  }
  return { countryIds, planIds };
}
