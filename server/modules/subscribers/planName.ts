import { SUBSCRIPTION_PLAN_FIELDS } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';

/** The name of the plan `planId` (an SQL expression) in the plans' `table`, by the field the plans' contract names. */
export function planNameSql(table: string, planId: string): string {
  return `(SELECT p.${quoted(SUBSCRIPTION_PLAN_FIELDS.name.field)}::text FROM ${quoted(table)} p WHERE p.id = ${planId})`;
}
