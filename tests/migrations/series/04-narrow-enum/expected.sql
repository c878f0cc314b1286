-- manifest/0004_no_fixed_discounts: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0003_required_fields.shape.json to 0004_no_fixed_discounts.shape.json:
--   - vouchers.discount_type allows percent, flat, was percent, flat, fixed
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: check that vouchers.discount_type holds only percent, flat
-- rows: SELECT count(*) FROM "vouchers" WHERE "discount_type" IS NOT NULL
SELECT refuse_rows('vouchers', 'hold a discount_type no longer allowed (allowed: percent, flat)', $rows$SELECT id FROM "vouchers" WHERE "discount_type" IS NOT NULL AND "discount_type" NOT IN ('percent', 'flat')$rows$);
