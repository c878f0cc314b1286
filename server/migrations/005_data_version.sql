-- The data version: one number that moves on with every committed change to the records the generic list and
-- record endpoints show (the manifest's tables, whose triggers tables.sql adds, and verifications). The
-- per-request session check reads it, so a server may keep those responses in memory under the version they
-- were read at and still show a change on the very next request, on every instance.
--
-- The bump is a deferred trigger: it runs at commit, after the transaction has taken every row lock it needs, so
-- the single version row is held only for the commit itself and cannot take part in a deadlock. A transaction
-- bumps once however many rows it wrote (the transaction-local setting records that it did).
CREATE TABLE IF NOT EXISTS data_version (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version bigint NOT NULL DEFAULT 1
);
INSERT INTO data_version DEFAULT VALUES ON CONFLICT DO NOTHING;

CREATE OR REPLACE FUNCTION bump_data_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('app.data_version_bumped', true) IS DISTINCT FROM 'on' THEN
    UPDATE data_version SET version = version + 1;
    PERFORM set_config('app.data_version_bumped', 'on', true);
  END IF;
  RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER verifications_data_version
  AFTER INSERT OR UPDATE OR DELETE ON verifications
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_data_version();
CREATE TRIGGER verifications_data_version_truncate
  AFTER TRUNCATE ON verifications FOR EACH STATEMENT EXECUTE FUNCTION bump_data_version();
