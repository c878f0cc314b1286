-- How many times an instance took an accepted upload up for import. An import that did not end (its instance
-- stopped, died or lost the database mid-way; the import is one transaction, so nothing of it stays) is taken up
-- again by any instance; one that never ends, whatever instance tries it, is failed after a few attempts instead of
-- being tried for ever.
ALTER TABLE upload_files ADD COLUMN IF NOT EXISTS import_attempts integer NOT NULL DEFAULT 0;
