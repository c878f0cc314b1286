import type { WebhookAnswer, WebhookDeliveryState } from '../../../contract/webhooks.ts';
import type { Queryable } from '../../db/database.ts';
import type { ExpectedVersion } from '../../http/recordVersion.ts';

/** What a webhook's maker sets. */
export interface WebhookSettings {
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
}

/** Characters of the secret kept in the answers: `whsec_` and four more. */
const SECRET_HINT_CHARACTERS = 10;

type StoredWebhook = Omit<WebhookAnswer, 'last_delivery'> & {
  last_state: WebhookDeliveryState | null;
  last_at: string | null;
  last_status: number | null;
};

const SELECT_WEBHOOKS = `
  SELECT w.id, w.name, w.url, w.events, w.enabled, w.paused_reason,
         left(w.secret, ${SECRET_HINT_CHARACTERS}) AS secret_hint, w.version,
         w.created_by, u.email AS created_by_email, coalesce(u.is_active, false) AS maker_active,
         w.created_at, w.updated_at,
         last.state AS last_state, coalesce(last.last_attempt_at, last.created_at) AS last_at,
         last.response_status AS last_status,
         (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state IN ('pending', 'sending')) AS pending,
         (SELECT count(*)::int FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.state = 'failed') AS failed
    FROM webhooks w
    LEFT JOIN users u ON u.id = w.created_by
    LEFT JOIN LATERAL (SELECT d.state, d.last_attempt_at, d.created_at, d.response_status FROM webhook_deliveries d
                        WHERE d.webhook_id = w.id ORDER BY d.created_at DESC, d.id DESC LIMIT 1) last ON true`;

function answerOf({ last_state, last_at, last_status, ...webhook }: StoredWebhook): WebhookAnswer {
  return {
    ...webhook,
    last_delivery: last_state && last_at ? { state: last_state, at: last_at, response_status: last_status } : null,
  };
}

/** The webhooks table (server/migrations/027_webhooks.sql). */
export const webhookStore = {
  async page(db: Queryable, page: number, pageSize: number): Promise<{ webhooks: WebhookAnswer[]; total: number }> {
    const [counted] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM webhooks');
    const rows = await db.query<StoredWebhook>(
      `${SELECT_WEBHOOKS} ORDER BY w.created_at DESC, w.id DESC LIMIT $1 OFFSET $2`,
      [pageSize, (page - 1) * pageSize],
    );
    return { webhooks: rows.map(answerOf), total: counted?.total ?? 0 };
  },

  async one(db: Queryable, id: number): Promise<WebhookAnswer | null> {
    const [row] = await db.query<StoredWebhook>(`${SELECT_WEBHOOKS} WHERE w.id = $1`, [id]);
    return row ? answerOf(row) : null;
  },

  async count(db: Queryable): Promise<number> {
    const [counted] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM webhooks');
    return counted?.total ?? 0;
  },

  async insert(db: Queryable, settings: WebhookSettings, secret: string, createdBy: number): Promise<number> {
    const [row] = await db.query<{ id: number }>(
      `INSERT INTO webhooks (name, url, events, enabled, secret, created_by) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
      [settings.name, settings.url, settings.events, settings.enabled, secret, createdBy],
    );
    return Number(row!.id);
  },

  /** The new settings at the version the caller read; false when the webhook is at another version (or gone). */
  async update(db: Queryable, id: number, settings: WebhookSettings, expected: ExpectedVersion): Promise<boolean> {
    const rows = await db.query(
      `UPDATE webhooks SET name = $2, url = $3, events = $4, enabled = $5, version = version + 1, updated_at = now(),
              paused_reason = CASE WHEN $5 THEN NULL ELSE paused_reason END
        WHERE id = $1 AND ($6::int[] IS NULL OR version = ANY($6::int[])) RETURNING id`,
      [
        id,
        settings.name,
        settings.url,
        settings.events,
        settings.enabled,
        expected === 'any' ? null : expected.versions,
      ],
    );
    return rows.length === 1;
  },

  async setSecret(db: Queryable, id: number, secret: string): Promise<boolean> {
    const rows = await db.query(
      'UPDATE webhooks SET secret = $2, version = version + 1, updated_at = now() WHERE id = $1 RETURNING id',
      [id, secret],
    );
    return rows.length === 1;
  },

  /**
   * Pauses an enabled webhook when nothing got through to it since `since` (the queuing of a delivery that has just
   * failed for good); answers what the people told need, or null when it was left as it was.
   */
  async pauseWhenNothingGotThrough(
    db: Queryable,
    id: number,
    since: string,
    reason: string,
  ): Promise<{ name: string; created_by: number | null } | null> {
    const [paused] = await db.query<{ name: string; created_by: number | null }>(
      `UPDATE webhooks w SET enabled = false, paused_reason = $3, version = version + 1, updated_at = now()
        WHERE w.id = $1 AND w.enabled
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                           WHERE d.webhook_id = w.id AND d.state = 'delivered' AND d.delivered_at >= $2::timestamptz)
        RETURNING w.name, w.created_by`,
      [id, since, reason],
    );
    return paused
      ? { name: paused.name, created_by: paused.created_by === null ? null : Number(paused.created_by) }
      : null;
  },

  async remove(db: Queryable, id: number): Promise<boolean> {
    const rows = await db.query('DELETE FROM webhooks WHERE id = $1 RETURNING id', [id]);
    return rows.length === 1;
  },
};
