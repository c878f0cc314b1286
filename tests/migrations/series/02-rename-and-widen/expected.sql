-- manifest/0002_details: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0001_initial.shape.json to 0002_details.shape.json:
--   - vouchers.description renamed to details
--   - vouchers.usage_limit is text, was bigint
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: convert vouchers.usage_limit from bigint to text
-- rows: SELECT count(*) FROM "vouchers" WHERE "usage_limit" IS NOT NULL
ALTER TABLE "vouchers" ALTER COLUMN "usage_limit" TYPE text USING (to_jsonb("usage_limit") #>> '{}');

-- step: rename vouchers.description to details
-- rows: SELECT count(*) FROM "vouchers" WHERE "description" IS NOT NULL
ALTER TABLE "vouchers" RENAME COLUMN "description" TO "details";
UPDATE trash SET stored_row = (stored_row - 'description') || jsonb_build_object('details', stored_row -> 'description') WHERE module = 'OFFER' AND stored_row ? 'description';
UPDATE audit_log SET snapshot = (snapshot - 'description') || jsonb_build_object('details', snapshot -> 'description') WHERE module = 'OFFER' AND snapshot ? 'description';
UPDATE audit_log SET changes = (changes - 'description') || jsonb_build_object('details', changes -> 'description') WHERE module = 'OFFER' AND changes ? 'description';
