import { MODULE } from '../registry.ts';
import type { ResourceBehaviours } from './resources/behaviours.ts';
import { subscriberBehaviour } from './subscribers/behaviour.ts';
import { dataUploadBehaviour } from './uploads/behaviour.ts';
import { roleBehaviour, userBehaviour } from './users-and-roles/behaviours.ts';

/** What the generic resource endpoints do beyond plain storage for the modules that say so (docs/api.md). */
export const RESOURCE_BEHAVIOURS: ResourceBehaviours = {
  [MODULE.users]: userBehaviour,
  [MODULE.roles]: roleBehaviour,
  [MODULE.subscribers]: subscriberBehaviour,
  [MODULE.dataUploadLogs]: dataUploadBehaviour,
};
