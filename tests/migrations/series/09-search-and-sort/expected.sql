-- manifest/0009_search_and_sort: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0008_coupons.shape.json to 0009_search_and_sort.shape.json:
--   - coupons: the search covers (code, details, discount_type), was (code, details)
--   - coupons: the list sorts by details, was code
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: drop the keys and indexes of coupons that change
DROP INDEX IF EXISTS "coupons_search_idx";
DROP INDEX IF EXISTS "coupons_code_sort_idx";

-- step: search index of coupons over code, details, discount_type
-- rows: SELECT count(*) FROM "coupons"
CREATE INDEX IF NOT EXISTS "coupons_search_idx" ON "coupons" USING gin ((lower(coalesce("code", '') || ' ' || coalesce("details", '') || ' ' || coalesce("discount_type", ''))) gin_trgm_ops) WITH (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "coupons_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);

-- step: sort index of coupons by details
CREATE INDEX IF NOT EXISTS "coupons_details_sort_idx" ON "coupons" ("details", id);
