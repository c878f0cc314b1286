-- manifest/0006_usage_limit_as_integer: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0005_details_once_per_plan.shape.json to 0006_usage_limit_as_integer.shape.json:
--   - vouchers.usage_limit is bigint, was text
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: convert vouchers.usage_limit from text to bigint
-- rows: SELECT count(*) FROM "vouchers" WHERE "usage_limit" IS NOT NULL
SELECT refuse_rows('vouchers', 'hold a usage_limit that does not convert from text to bigint', $rows$SELECT id FROM "vouchers" WHERE "usage_limit" IS NOT NULL AND NOT value_converts("usage_limit", 'bigint')$rows$);
ALTER TABLE "vouchers" ALTER COLUMN "usage_limit" TYPE bigint USING "usage_limit"::bigint;
