-- manifest/0007_upload_review_statuses: written by `admin-codegen make-migration` from the manifest's data shape,
-- from 0006_users_choose_their_own_password.shape.json to 0007_upload_review_statuses.shape.json:
--   - data_uploads.status allows pending, processing, needs_review, published, rejected, failed, cancelled, replaced, abandoned, was pending, processing, completed, failed, cancelled, replaced, abandoned
--   - module DATA_UPLOAD_LOGS now offers verify
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: an upload that was completed was published at once: it is now called published
-- rows: SELECT count(*) FROM "data_uploads" WHERE "status" = 'completed'
UPDATE "data_uploads" SET "status" = 'published' WHERE "status" = 'completed';

-- step: the roles that may delete uploads (and so take published data out) may review them (verify)
-- rows: SELECT count(*) FROM role_permissions WHERE module = 'DATA_UPLOAD_LOGS' AND action = 'delete'
INSERT INTO role_permissions (role_id, module, action)
  SELECT role_id, module, 'verify' FROM role_permissions WHERE module = 'DATA_UPLOAD_LOGS' AND action = 'delete'
  ON CONFLICT DO NOTHING;

-- step: check that data_uploads.status holds only pending, processing, needs_review, published, rejected, failed, cancelled, replaced, abandoned
-- rows: SELECT count(*) FROM "data_uploads" WHERE "status" IS NOT NULL
SELECT refuse_rows('data_uploads', 'hold a status no longer allowed (allowed: pending, processing, needs_review, published, rejected, failed, cancelled, replaced, abandoned)', $rows$SELECT id FROM "data_uploads" WHERE "status" IS NOT NULL AND "status" NOT IN ('pending', 'processing', 'needs_review', 'published', 'rejected', 'failed', 'cancelled', 'replaced', 'abandoned')$rows$);
