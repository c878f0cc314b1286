-- manifest/0003_required_fields: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0002_details.shape.json to 0003_required_fields.shape.json:
--   - vouchers.discount_type is now required
--   - vouchers.priority is new (bigint, required)
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: fill vouchers.discount_type where it is empty, now that it is required: 'percent'
-- rows: SELECT count(*) FROM "vouchers" WHERE "discount_type" IS NULL
UPDATE "vouchers" SET "discount_type" = 'percent' WHERE "discount_type" IS NULL;

-- step: add vouchers.priority (bigint; the rows already stored get 3)
-- rows: SELECT count(*) FROM "vouchers"
ALTER TABLE "vouchers" ADD COLUMN IF NOT EXISTS "priority" bigint DEFAULT 3;
ALTER TABLE "vouchers" ALTER COLUMN "priority" DROP DEFAULT;
