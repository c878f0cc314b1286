/**
 * The audit log's vocabulary and answers, shared by the server that writes and serves them and the console that
 * shows them (docs/api.md, "Audit log, history and trash").
 */

/** What an entry records. A resource's own writes use the first group; the fixed endpoints the rest. */
export const AUDIT_ACTIONS = {
  create: 'Created',
  update: 'Updated',
  status: 'Status changed',
  delete: 'Deleted',
  bulk_delete: 'Deleted several',
  bulk_status: 'Status of several changed',
  bulk_update: 'Changed several',
  import: 'Imported',
  import_dry_run: 'Import checked (dry run)',
  verify: 'Verified',
  publish: 'Published after review',
  reject: 'Rejected after review',
  restore: 'Restored from trash',
  restore_version: 'Restored a version',
  purge: 'Deleted permanently',
  revoke: 'Revoked',
  secret_rotated: 'New signing secret',
  ping: 'Test event sent',
  resend: 'Sent again',
  paused: 'Paused: deliveries kept failing',
  permissions: 'Permissions changed',
  login: 'Signed in',
  login_failed: 'Sign-in failed',
  logout: 'Signed out',
  session_end: 'Session ended',
  two_factor_on: 'Two-factor sign-in turned on',
  two_factor_off: 'Two-factor sign-in turned off',
  two_factor_reset: 'Two-factor sign-in reset',
  recovery_codes: 'New recovery codes',
  passkey_added: 'Passkey added',
  passkey_renamed: 'Passkey renamed',
  passkey_removed: 'Passkey removed',
  password_change: 'Password changed',
  password_reset: 'Password reset',
  password_reset_requested: 'Password reset requested',
  email_verified: 'E-mail address verified',
  verification_sent: 'Verification link sent',
  profile: 'Profile changed',
  subscribe: 'Subscribed',
  subscription_cancel: 'Subscription cancelled',
  subscription_state: 'Status changed with time',
  top_up: 'Points topped up',
  upload: 'Data uploaded',
  notification_read: 'Notification read',
  sync: 'Data synchronised',
  view_saved: 'List view saved',
  view_deleted: 'List view deleted',
  list_preferences: 'List settings changed',
} as const;

export type AuditAction = keyof typeof AUDIT_ACTIONS;

/** The module of entries about a user's notifications, which are no module of the manifest. */
export const NOTIFICATIONS_MODULE = 'NOTIFICATIONS';

/** Labels of the modules entries name beyond the manifest's (whose labels come from the generated description). */
export const AUDIT_MODULE_LABELS: Record<string, string> = { [NOTIFICATIONS_MODULE]: 'Notifications' };

/** One field's change. A secret (a password, a hash, a token) is never stored: only that it changed. */
export type FieldChange = { before: unknown; after: unknown } | { changed: true };

export type FieldChanges = Record<string, FieldChange>;

/** An entry as `GET audit-log` and `GET <resource>/:id/history` answer it. */
export interface AuditEntryAnswer {
  id: number;
  at: string;
  user_id: number | null;
  user_email: string | null;
  /** The API token the change was made with, by name; null: made by the user signed in (or by the system). */
  api_token: string | null;
  client_address: string | null;
  request_id: string | null;
  module: string;
  record_id: number | null;
  action: string;
  changes: FieldChanges;
  details: Record<string, unknown>;
}

/** A record's history entry: the entry, and whether its snapshot can be restored (it has one and it is not the current state). */
export interface HistoryEntryAnswer extends AuditEntryAnswer {
  restorable: boolean;
  /** What people read for the relation fields among `changes`: the related records' labels now, by field. */
  labels: Record<string, { before: string | null; after: string | null }>;
}

/** The `meta` of a paged answer of entries (history, trash, audit log). */
export interface EntriesPageMeta {
  total: number;
  page: number;
  page_size: number;
  /** The audit log counts exactly up to a bound and estimates past it, so a filtered page stays fast on millions. */
  total_is_estimate?: boolean;
}

/** A deleted record as `GET <resource>/trash` answers it: its stored fields (secrets left out) and who deleted it when. */
export interface TrashEntryAnswer {
  id: number;
  label: string | null;
  deleted_at: string;
  deleted_by: number | null;
  deleted_by_email: string | null;
  record: Record<string, unknown>;
}

/** Who made a change, as people read it: the user's e-mail, with the API token they made when one made it; null: the system. */
export function changedBy(entry: Pick<AuditEntryAnswer, 'user_email' | 'api_token'>): string | null {
  if (entry.user_email === null) return null;
  return entry.api_token ? `API token "${entry.api_token}" of ${entry.user_email}` : entry.user_email;
}
