import type { SessionUser } from '../auth/session.ts';
import { MODULE, entityResource, relationTo } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { Scope } from '../../db/sqlParams.ts';

/**
 * executive_access (docs/api.md): an executive sees only the subscribers assigned to them. A subscriber is
 * assigned through its field that relates to USERS, or to a resource (the executive profile) whose record
 * relates to USERS. Without such a field nothing can be assigned, so an executive sees nothing.
 */
export function subscriberScope(user: SessionUser): Scope | null {
  if (!user.grants.can(MODULE.subscribers, 'executive_access')) return null;
  const assignment = executiveAssignment();
  if (!assignment) return () => 'false';
  return (params, alias = 't') => {
    const me = params.add(user.id);
    return assignment.via
      ? `${alias}.${quoted(assignment.field)} IN (SELECT id FROM ${quoted(assignment.via.table)} WHERE ${quoted(assignment.via.userField)} = ${me})`
      : `${alias}.${quoted(assignment.field)} = ${me}`;
  };
}

/**
 * The subscribers assigned to one executive, by the id of their executive profile record: the subscribers whose
 * field names that profile or, when it names the user, the profile's user. Nothing without an assignment field.
 */
export function assignedToExecutive(profileId: number): Scope {
  const assignment = executiveAssignment();
  return (params, alias = 't') => {
    if (!assignment) return 'false';
    if (assignment.via) return `${alias}.${quoted(assignment.field)} = ${params.add(profileId)}`;
    const profiles = entityResource(MODULE.executiveProfile);
    const userField = profiles && relationTo(profiles.entity, MODULE.users);
    if (!profiles || !userField) return 'false';
    return `${alias}.${quoted(assignment.field)} = (SELECT ${quoted(userField.name)} FROM ${quoted(profiles.entity.table)} WHERE id = ${params.add(profileId)})`;
  };
}

export interface ExecutiveAssignment {
  /** The subscriber field holding the assignment. */
  field: string;
  /** When the field points at executive profiles: their table and the field naming the user. */
  via: { table: string; userField: string; resource: string } | null;
}

export function executiveAssignment(): ExecutiveAssignment | null {
  const subscribers = entityResource(MODULE.subscribers);
  if (!subscribers) return null;
  const direct = relationTo(subscribers.entity, MODULE.users);
  if (direct) return { field: direct.name, via: null };
  for (const field of subscribers.entity.fields) {
    if (!field.relation) continue;
    const target = entityResource(field.relation.resource);
    const userField = target && relationTo(target.entity, MODULE.users);
    if (target && userField)
      return {
        field: field.name,
        via: { table: target.entity.table, userField: userField.name, resource: target.key },
      };
  }
  return null;
}
