import {
  DOMAIN_EVENTS,
  RECORD_EVENTS,
  type RecordEvent,
  type WebhookEventChoice,
} from '../../../../contract/webhooks.ts';

/** The record events of one module, as the picker groups them. */
export interface ModuleEvents {
  module: string;
  label: string;
  events: WebhookEventChoice[];
}

export interface GroupedEvents {
  modules: ModuleEvents[];
  /** The events that are no record's plain change (`uploads.published`), each with what it means. */
  other: WebhookEventChoice[];
}

/** How many parts of a summary a list cell names before it counts the rest. */
const SUMMARY_PARTS = 3;

const RECORD_EVENT_ORDER = Object.keys(RECORD_EVENTS);
const isRecordEvent = (word: string): word is RecordEvent => Object.hasOwn(RECORD_EVENTS, word);

/** What happens to a record in a record event (`vouchers.updated` → `updated`); null for any other event. */
function recordEventOf(name: string): RecordEvent | null {
  if (Object.hasOwn(DOMAIN_EVENTS, name)) return null;
  const last = name.slice(name.lastIndexOf('.') + 1);
  return isRecordEvent(last) ? last : null;
}

/** What a record event's checkbox says ("Changed"); another event is named as it is sent. */
export function eventLabel(name: string): string {
  const happened = recordEventOf(name);
  return happened ? RECORD_EVENTS[happened] : name;
}

/** The events the caller may choose: record events by module, in the order the server listed them, and the others. */
export function groupEvents(choices: readonly WebhookEventChoice[]): GroupedEvents {
  const modules = new Map<string, ModuleEvents>();
  const other: WebhookEventChoice[] = [];
  for (const choice of choices) {
    if (!recordEventOf(choice.name)) {
      other.push(choice);
      continue;
    }
    const group = modules.get(choice.module);
    if (group) group.events.push(choice);
    else modules.set(choice.module, { module: choice.module, label: choice.module_label, events: [choice] });
  }
  return { modules: [...modules.values()], other };
}

/**
 * What a webhook wants, a part for each module ("Vouchers: created, changed") and each other event
 * ("uploads.published"), in the order it lists them. A module's label comes from the events the caller may choose; an
 * event outside them (of a module the caller does not see) is named by its API path.
 */
export function eventsParts(events: readonly string[], choices: readonly WebhookEventChoice[]): string[] {
  const labels = new Map(choices.map((choice) => [choice.name, choice.module_label]));
  // A module's part, once, where its first event stands; its record events gather there.
  const modules = new Map<string, RecordEvent[]>();
  const parts: { label: string; happened: RecordEvent[] | null }[] = [];
  for (const name of events) {
    const happened = recordEventOf(name);
    if (!happened) {
      parts.push({ label: name, happened: null });
      continue;
    }
    const label = labels.get(name) ?? name.slice(0, name.lastIndexOf('.'));
    const gathered = modules.get(label);
    if (gathered) {
      gathered.push(happened);
      continue;
    }
    const first = [happened];
    modules.set(label, first);
    parts.push({ label, happened: first });
  }
  return parts.map(({ label, happened }) => {
    if (!happened) return label;
    if (happened.length === RECORD_EVENT_ORDER.length) return `${label}: every change`;
    const ordered = [...happened].sort((a, b) => RECORD_EVENT_ORDER.indexOf(a) - RECORD_EVENT_ORDER.indexOf(b));
    return `${label}: ${ordered.map((one) => RECORD_EVENTS[one].toLowerCase()).join(', ')}`;
  });
}

/** "Vouchers: created, changed · uploads.published", as the list says what a webhook wants; past three parts, counted. */
export function eventsSummary(events: readonly string[], choices: readonly WebhookEventChoice[]): string {
  const parts = eventsParts(events, choices);
  if (parts.length <= SUMMARY_PARTS) return parts.join(' · ');
  const rest = parts.length - SUMMARY_PARTS;
  return `${parts.slice(0, SUMMARY_PARTS).join(' · ')} · and ${rest} more (${events.length} events in all)`;
}
