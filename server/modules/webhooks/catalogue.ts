import { NARROWING_ACTIONS } from '../../../contract/modules.ts';
import { DOMAIN_EVENTS, RECORD_EVENTS, type RecordEvent, type WebhookEventChoice } from '../../../contract/webhooks.ts';
import { ENTITY_RESOURCES, MODULE, resource, type EntityResource } from '../../registry.ts';
import type { Grants } from '../auth/grants.ts';

/** The module whose records each domain event is about: who may want it is judged on that module. */
const DOMAIN_EVENT_MODULES: Record<keyof typeof DOMAIN_EVENTS, string> = {
  'uploads.published': MODULE.dataUploadLogs,
  'subscriptions.expiring': MODULE.subscribers,
};

/** A resource's event name: its API path and what happened (`vouchers.updated`). */
export function recordEventName(resource: EntityResource, event: RecordEvent): string {
  return `${resource.api}.${event}`;
}

/** A resource's record events: `restored` only where a delete keeps the record in the trash. */
function recordEvents(resource: EntityResource): RecordEvent[] {
  return (Object.keys(RECORD_EVENTS) as RecordEvent[]).filter(
    (event) => event !== 'restored' || resource.entity.softDelete,
  );
}

let catalogue: WebhookEventChoice[] | null = null;

/** Every event a webhook may want: each stored resource's record events, then the domain events. */
export function webhookEvents(): readonly WebhookEventChoice[] {
  catalogue ??= [
    ...ENTITY_RESOURCES.flatMap((entity) =>
      recordEvents(entity).map((event) => ({
        name: recordEventName(entity, event),
        module: entity.key,
        module_label: entity.label,
        description: `${entity.singular}: ${RECORD_EVENTS[event].toLowerCase()}.`,
      })),
    ),
    ...(Object.entries(DOMAIN_EVENTS) as Array<[keyof typeof DOMAIN_EVENTS, string]>).flatMap(([name, description]) => {
      const module = resource(DOMAIN_EVENT_MODULES[name]);
      return module ? [{ name, module: module.key, module_label: module.label, description }] : [];
    }),
  ];
  return catalogue;
}

/**
 * Whether a role may have webhooks of a module's events: it views the module whole. A webhook sends every record,
 * so a role that sees only part of them (an executive's subscribers) may not.
 */
export function seesWhole(grants: Grants, module: string): boolean {
  return grants.can(module, 'view') && ![...NARROWING_ACTIONS].some((action) => grants.can(module, action));
}

/** The events `grants` may choose. */
export function eventsFor(grants: Grants): WebhookEventChoice[] {
  return webhookEvents().filter((event) => seesWhole(grants, event.module));
}
