-- A role's permission set carries a version that every change to role_permissions bumps, in the same
-- transaction. The per-request session check reads the version along with the session, so a server may keep
-- permission sets in memory keyed by (role, version) and still see a change on the very next request, on every
-- instance: nothing about who may do what is trusted from memory without the database confirming it is current.
ALTER TABLE roles ADD COLUMN IF NOT EXISTS grants_version bigint NOT NULL DEFAULT 1;

-- Statement level and for every role: permission edits are rare and roles few, and a bulk edit bumps once.
CREATE OR REPLACE FUNCTION bump_role_grants_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE roles SET grants_version = grants_version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER role_permissions_bump_grants_version
  AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_role_grants_version();
