-- An imported upload is compared with the last published month of its country and trade direction before customers
-- see it (docs/api.md, "Review before publishing"). `review` is that comparison as the review screen reads it (the
-- upload's own figures, its checks and which of them went beyond their threshold), stored when the import ends so it
-- is never computed again; `review_reason` is why a reviewer published or rejected an upload that was held (who and
-- when are its row in `verifications`, which the upload's record reads as `verified_at`).
ALTER TABLE upload_files ADD COLUMN IF NOT EXISTS review jsonb;
ALTER TABLE upload_files ADD COLUMN IF NOT EXISTS review_reason text;

-- The thresholds beyond which an import waits for a reviewer, as an administrator set them: one row, holding only
-- the thresholds changed from their defaults (the defaults live in the code, so a new check has one at once).
CREATE TABLE IF NOT EXISTS upload_review_settings (
  id boolean PRIMARY KEY DEFAULT true CHECK (id),
  thresholds jsonb NOT NULL DEFAULT '{}'::jsonb,
  updated_by bigint,
  updated_at timestamptz NOT NULL DEFAULT now()
);
