-- A change to one role's permissions moves that role's grants version only (migration 004 moved every role's, and
-- with it every role's record version, so someone saving another role's matrix meanwhile was refused with 412).
-- One statement-level trigger per kind of change, each reading the changed rows from its transition table, so a
-- statement that writes many pairs of one role still moves its version once.
DROP TRIGGER IF EXISTS role_permissions_bump_grants_version ON role_permissions;
DROP FUNCTION IF EXISTS bump_role_grants_version();

CREATE OR REPLACE FUNCTION bump_inserted_roles_grants_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE roles SET grants_version = grants_version + 1 WHERE id IN (SELECT role_id FROM inserted_pairs);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION bump_deleted_roles_grants_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE roles SET grants_version = grants_version + 1 WHERE id IN (SELECT role_id FROM deleted_pairs);
  RETURN NULL;
END
$$;

CREATE OR REPLACE FUNCTION bump_updated_roles_grants_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE roles SET grants_version = grants_version + 1
   WHERE id IN (SELECT role_id FROM pairs_before UNION SELECT role_id FROM pairs_after);
  RETURN NULL;
END
$$;

-- TRUNCATE has no transition table and touches every role.
CREATE OR REPLACE FUNCTION bump_all_roles_grants_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE roles SET grants_version = grants_version + 1;
  RETURN NULL;
END
$$;

CREATE TRIGGER role_permissions_inserted_grants_version AFTER INSERT ON role_permissions
  REFERENCING NEW TABLE AS inserted_pairs FOR EACH STATEMENT EXECUTE FUNCTION bump_inserted_roles_grants_version();
CREATE TRIGGER role_permissions_deleted_grants_version AFTER DELETE ON role_permissions
  REFERENCING OLD TABLE AS deleted_pairs FOR EACH STATEMENT EXECUTE FUNCTION bump_deleted_roles_grants_version();
CREATE TRIGGER role_permissions_updated_grants_version AFTER UPDATE ON role_permissions
  REFERENCING OLD TABLE AS pairs_before NEW TABLE AS pairs_after FOR EACH STATEMENT EXECUTE FUNCTION bump_updated_roles_grants_version();
CREATE TRIGGER role_permissions_truncated_grants_version AFTER TRUNCATE ON role_permissions
  FOR EACH STATEMENT EXECUTE FUNCTION bump_all_roles_grants_version();
