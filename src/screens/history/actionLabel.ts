import { AUDIT_ACTIONS } from '../../../contract/audit.ts';
import { humanize } from '../shared/humanize.ts';

/** What an entry's action is called in the audit vocabulary, or its code in words. */
export function actionLabel(action: string): string {
  return (AUDIT_ACTIONS as Record<string, string>)[action] ?? humanize(action);
}
