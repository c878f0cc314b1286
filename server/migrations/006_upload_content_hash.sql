-- What the server checked when it accepted an upload's file (posted to it, or read back from the bucket at
-- completion): the SHA-256 of those bytes, as lowercase hex. A presigned POST stays usable until it expires, so a
-- bucket object may be replaced after it was checked; the processor imports a stored file only when its bytes still
-- have this hash, whatever the storage. Uploads accepted before this column existed have none and are not imported.
ALTER TABLE upload_files ADD COLUMN IF NOT EXISTS stored_sha256 text CHECK (stored_sha256 ~ '^[0-9a-f]{64}$');
