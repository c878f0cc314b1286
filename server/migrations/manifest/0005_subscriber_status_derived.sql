-- manifest/0005_subscriber_status_derived: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0004_upload_status_cancelled_replaced_abandoned.shape.json to 0005_subscriber_status_derived.shape.json:
--   - subscribers.status is no longer required
--   - subscribers.status allows none, trial, active, expiring, expired, cancelled, was trial, subscribed, expired
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: derive every subscriber's status and plan from their subscriptions (server migration 021's subscription_state),
-- listing in migration_decisions, by id, each subscriber whose stored status or plan no subscription supported
-- rows: SELECT count(*) FROM "subscribers"
WITH derived AS (
  SELECT t.id, t."status" AS was_status, t."plan_id" AS was_plan, d.status, d.plan_id
    FROM "subscribers" t, LATERAL subscription_state(t.id, current_date, 30) d
), decided AS (
  INSERT INTO migration_decisions (migration, table_name, record_id, decision)
  SELECT '0005_subscriber_status_derived', 'subscribers', id,
         format('status %s and plan %s were typed; the subscriptions say status %s and plan %s',
                coalesce(was_status, 'empty'), coalesce(was_plan::text, 'none'), status, coalesce(plan_id::text, 'none'))
    FROM derived
   WHERE was_plan IS DISTINCT FROM plan_id
      OR was_status IS DISTINCT FROM (CASE status WHEN 'active' THEN 'subscribed' WHEN 'expiring' THEN 'subscribed' WHEN 'none' THEN 'trial' WHEN 'cancelled' THEN 'expired' ELSE status END)
)
UPDATE "subscribers" t SET "status" = d.status, "plan_id" = d.plan_id FROM derived d
 WHERE d.id = t.id AND (t."status" IS DISTINCT FROM d.status OR t."plan_id" IS DISTINCT FROM d.plan_id);

-- step: check that subscribers.status holds only none, trial, active, expiring, expired, cancelled
-- rows: SELECT count(*) FROM "subscribers" WHERE "status" IS NOT NULL
SELECT refuse_rows('subscribers', 'hold a status no longer allowed (allowed: none, trial, active, expiring, expired, cancelled)', $rows$SELECT id FROM "subscribers" WHERE "status" IS NOT NULL AND "status" NOT IN ('none', 'trial', 'active', 'expiring', 'expired', 'cancelled')$rows$);
