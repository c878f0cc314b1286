import type { SessionUser } from '../auth/session.ts';
import type { Scope } from '../../db/sqlParams.ts';
import { MODULE, entityResource, relationTo, type EntityResource } from '../../registry.ts';
import { quoted } from '../../../codegen/sqlNames.ts';
import type { ResourceBehaviour } from './behaviours.ts';
import { subscriberScope } from '../auth/executiveScope.ts';

/**
 * The records of a resource a caller may see and change, wherever they are read or written (docs/api.md, "Who sees
 * which records"): the resource's own scope (its behaviour's), else, for a resource whose rows belong to a subscriber
 * (a relation to SUBSCRIBERS), the scope of that subscriber: an executive reaches a contact only through a subscriber
 * assigned to them. Null: every record. A job (no user) is not scoped.
 */
export function recordScope(
  resource: EntityResource,
  behaviour: ResourceBehaviour,
  user: SessionUser | null,
): Scope | null {
  if (!user) return null;
  if (behaviour.scope) return behaviour.scope(user);
  const owner = subscriberOwner(resource);
  if (!owner) return null;
  const subscribers = subscriberScope(user);
  if (!subscribers) return null;
  return (params, alias = 't') =>
    `${alias}.${quoted(owner.field)} IN (SELECT s.id FROM ${quoted(owner.table)} s WHERE ${subscribers(params, 's')})`;
}

/** The field by which a resource's rows belong to a subscriber, and the subscribers' table; null for others. */
function subscriberOwner(resource: EntityResource): { field: string; table: string } | null {
  if (resource.key === MODULE.subscribers) return null;
  const subscribers = entityResource(MODULE.subscribers);
  const field = relationTo(resource.entity, MODULE.subscribers);
  return subscribers && field ? { field: field.name, table: subscribers.entity.table } : null;
}
