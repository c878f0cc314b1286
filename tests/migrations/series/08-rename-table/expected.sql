-- manifest/0008_coupons: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0007_removals.shape.json to 0008_coupons.shape.json:
--   - table vouchers renamed to coupons
--   - module OFFER renamed to COUPON: its grants follow
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: move the grants, audit entries and trash of module OFFER to COUPON
-- rows: SELECT count(*) FROM role_permissions WHERE module = 'OFFER'
UPDATE role_permissions SET module = 'COUPON' WHERE module = 'OFFER';
UPDATE verifications SET module = 'COUPON' WHERE module = 'OFFER';
UPDATE audit_log SET module = 'COUPON' WHERE module = 'OFFER';
UPDATE trash SET module = 'COUPON' WHERE module = 'OFFER';

-- step: rename table vouchers to coupons
-- rows: SELECT count(*) FROM "vouchers"
ALTER TABLE "vouchers" RENAME TO "coupons";
ALTER INDEX "vouchers_pkey" RENAME TO "coupons_pkey";
ALTER TRIGGER "vouchers_record_version" ON "coupons" RENAME TO "coupons_record_version";
ALTER TRIGGER "vouchers_data_version" ON "coupons" RENAME TO "coupons_data_version";
ALTER TRIGGER "vouchers_data_version_truncate" ON "coupons" RENAME TO "coupons_data_version_truncate";
ALTER INDEX "vouchers_code_key" RENAME TO "coupons_code_key";
ALTER INDEX "vouchers_search_idx" RENAME TO "coupons_search_idx";
ALTER INDEX "vouchers_code_sort_idx" RENAME TO "coupons_code_sort_idx";
