-- A file arrives in chunks (the tus protocol) and may resume after a break, so its end and its check are two steps:
-- `received_sha256` is the SHA-256 of all its bytes, recorded when the last chunk is stored, for the check at
-- completion on whichever instance it runs. `storage_key` is fixed when the first chunk's upload is created.
ALTER TABLE upload_files ADD COLUMN IF NOT EXISTS received_sha256 text;

-- Who is writing the file of an upload that arrives in chunks (tus), whichever instance the request reached: one
-- request at a time per file. The holder renews `held_until` while its request runs and lets go when another request
-- asks for the file (`release_requested`); the lock of an instance that stopped mid-chunk lapses at `held_until`.
CREATE TABLE IF NOT EXISTS upload_file_locks (
  file_id text PRIMARY KEY,
  holder text NOT NULL,
  held_until timestamptz NOT NULL,
  release_requested boolean NOT NULL DEFAULT false
);
