-- manifest/0005_details_once_per_plan: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0004_no_fixed_discounts.shape.json to 0005_details_once_per_plan.shape.json:
--   - vouchers: unique key (plan_id, details) is new
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: unique key of vouchers (plan_id, details)
-- rows: SELECT count(*) FROM "vouchers"
SELECT refuse_rows('vouchers', 'break the new unique key (plan_id, details)', $rows$SELECT id FROM (SELECT id, count(*) OVER (PARTITION BY "plan_id", "details") AS same FROM "vouchers" WHERE "plan_id" IS NOT NULL AND "details" IS NOT NULL) AS keyed WHERE same > 1$rows$);
CREATE UNIQUE INDEX IF NOT EXISTS "vouchers_plan_id_details_key" ON "vouchers" ("plan_id", "details");
