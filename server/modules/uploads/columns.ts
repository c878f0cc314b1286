import type { Queryable } from '../../db/database.ts';
import { MODULE, entityResource, field } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { STANDARD_COLUMNS, type ColumnType, type TradeColumn } from './tradeColumns.ts';

/**
 * The trade-data columns configured in the data column module (DATA_FIELDS_MODULE) for a trade direction.
 * The columns trade_records needs are always required, whatever the configuration says.
 */
export async function configuredColumns(db: Queryable, tradeDirection: string): Promise<TradeColumn[]> {
  const columns = new Map(STANDARD_COLUMNS.map((column) => [column.name, column]));
  const dataFields = entityResource(MODULE.dataFields);
  if (dataFields && field(dataFields.entity, 'column_name')) {
    const has = (name: string) => field(dataFields.entity, name) !== undefined;
    const rows = await db.query<{ column_name: string; data_type: string | null; is_required: boolean | null }>(
      `SELECT column_name, ${has('data_type') ? 'data_type' : 'NULL::text AS data_type'}, ${has('is_required') ? 'is_required' : 'NULL::boolean AS is_required'}
         FROM ${quoted(dataFields.entity.table)}
        WHERE is_active AND column_name IS NOT NULL ${has('trade_direction') ? `AND trade_direction IN ($1, 'both')` : 'AND $1::text IS NOT NULL'}`,
      [tradeDirection],
    );
    for (const row of rows) {
      const standard = columns.get(row.column_name);
      const type: ColumnType = row.data_type === 'number' || row.data_type === 'date' ? row.data_type : 'string';
      columns.set(
        row.column_name,
        standard
          ? { ...standard, required: standard.required || row.is_required === true }
          : { name: row.column_name, type, required: row.is_required === true },
      );
    }
  }
  return [...columns.values()];
}
