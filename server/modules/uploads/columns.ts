import type { Queryable } from '../../db/database.ts';
import { DATA_COLUMN_FIELDS, MODULE, entityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import { STANDARD_COLUMNS, type ColumnType, type TradeColumn } from './tradeColumns.ts';

/**
 * The trade-data columns configured in the data column module (DATA_FIELDS_MODULE) for a trade direction, read by the
 * fields its contract names (`DATA_COLUMN_FIELDS`). The columns trade_records needs are always required, whatever the
 * configuration says.
 */
export async function configuredColumns(db: Queryable, tradeDirection: string): Promise<TradeColumn[]> {
  const columns = new Map(STANDARD_COLUMNS.map((column) => [column.name, column]));
  const dataFields = entityResource(MODULE.dataFields);
  if (dataFields) {
    const { columnName, dataType, isRequired, tradeDirection: direction } = DATA_COLUMN_FIELDS;
    const rows = await db.query<{ column_name: string; data_type: string | null; is_required: boolean | null }>(
      `SELECT ${quoted(columnName.field)} AS column_name, ${quoted(dataType.field)} AS data_type, ${quoted(isRequired.field)} AS is_required
         FROM ${quoted(dataFields.entity.table)}
        WHERE is_active AND ${quoted(columnName.field)} IS NOT NULL AND ${quoted(direction.field)} IN ($1, 'both')`,
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
