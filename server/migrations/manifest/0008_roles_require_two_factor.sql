-- manifest/0008_roles_require_two_factor: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0007_upload_review_statuses.shape.json to 0008_roles_require_two_factor.shape.json:
--   - roles.requires_two_factor is new (boolean)
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: add roles.requires_two_factor (boolean)
ALTER TABLE "roles" ADD COLUMN IF NOT EXISTS "requires_two_factor" boolean;
