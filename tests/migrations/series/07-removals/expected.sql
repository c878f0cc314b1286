-- manifest/0007_removals: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0006_usage_limit_as_integer.shape.json to 0007_removals.shape.json:
--   - table tags is gone: its values are kept
--   - vouchers.plan_id is gone: its values are kept
--   - vouchers.internal_note is gone: its values are kept
--   - vouchers.legacy_ref is gone: its values are dropped
--   - vouchers: unique key (plan_id, details) is gone
--   - module TAG is gone
--   - module OFFER no longer offers download
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: drop the keys and indexes of vouchers that change
DROP INDEX IF EXISTS "vouchers_plan_id_details_key";

-- step: remove vouchers.plan_id (values kept in vouchers_removed_0007), vouchers.internal_note (values kept in vouchers_removed_0007), vouchers.legacy_ref (values dropped)
-- rows: SELECT count(*) FROM "vouchers" WHERE "plan_id" IS NOT NULL OR "internal_note" IS NOT NULL OR "legacy_ref" IS NOT NULL
CREATE TABLE "vouchers_removed_0007" AS SELECT id, "plan_id", "internal_note" FROM "vouchers" WHERE "plan_id" IS NOT NULL OR "internal_note" IS NOT NULL;
ALTER TABLE "vouchers" DROP COLUMN "plan_id", DROP COLUMN "internal_note", DROP COLUMN "legacy_ref";

-- step: remove table tags (module TAG), its rows kept in tags_removed_0007
-- rows: SELECT count(*) FROM "tags"
CREATE TABLE "tags_removed_0007" AS SELECT * FROM "tags";
DROP TABLE "tags";

-- step: delete the grants of OFFER's actions that are gone: download
-- rows: SELECT count(*) FROM role_permissions WHERE module = 'OFFER' AND action IN ('download')
DELETE FROM role_permissions WHERE module = 'OFFER' AND action IN ('download');

-- step: delete the grants of module TAG, which is gone
-- rows: SELECT count(*) FROM role_permissions WHERE module = 'TAG'
DELETE FROM role_permissions WHERE module = 'TAG';
