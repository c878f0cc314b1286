import { useEffect, useId, useRef, useState } from 'react';
import type { WebhookEventChoice } from '../../../../contract/webhooks.ts';
import { ModuleFinder } from '../../shared/ModuleFinder.tsx';
import { eventLabel, groupEvents, type ModuleEvents } from './webhookEvents.ts';

/** From how many modules on the picker offers a box to find one by name. */
const FINDER_FROM_MODULES = 6;

export interface EventsPickerProps {
  /** The events the user may choose (`GET webhooks/events`). */
  choices: readonly WebhookEventChoice[];
  chosen: readonly string[];
  onChange: (events: string[]) => void;
  /** The server's refusal of the events, said under them. */
  error?: string;
}

/**
 * The events a webhook wants: each module's record events as a group, with a box that ticks all of them, and the
 * other events with what they mean. Events the webhook wants that the user may not choose are kept and counted.
 */
export function EventsPicker({ choices, chosen, onChange, error }: EventsPickerProps) {
  const [find, setFind] = useState('');
  const countId = useId();
  const { modules, other } = groupEvents(choices);
  const ticked = new Set(chosen);
  const offered = new Set(choices.map((choice) => choice.name));
  const unseen = chosen.filter((name) => !offered.has(name)).length;
  const wanted = find.trim().toLowerCase();
  // Modules with a ticked event stay in sight while another is looked for.
  const shown = modules.filter(
    (group) =>
      !wanted || group.label.toLowerCase().includes(wanted) || group.events.some((event) => ticked.has(event.name)),
  );

  const set = (names: readonly string[], on: boolean) => {
    const next = new Set(chosen);
    for (const name of names) {
      if (on) next.add(name);
      else next.delete(name);
    }
    onChange([...next]);
  };

  return (
    <fieldset className="webhook-events" aria-describedby={countId}>
      <legend>Events it wants</legend>
      <p className="webhook-help">
        A record event is sent when a record of that module is created, changed, deleted or restored; only the modules
        you may view are offered.
      </p>
      {modules.length > FINDER_FROM_MODULES && <ModuleFinder value={find} onChange={setFind} />}
      {shown.length === 0 && wanted && <p role="status">No module of yours is called that.</p>}
      {shown.map((group) => (
        <ModuleEventsGroup key={group.module} group={group} ticked={ticked} onSet={set} />
      ))}
      {other.length > 0 && (
        <fieldset className="webhook-events__group">
          <legend>Other events</legend>
          {other.map((choice) => (
            <div key={choice.name} className="webhook-events__other">
              <label className="webhook-events__event">
                <input
                  type="checkbox"
                  checked={ticked.has(choice.name)}
                  aria-describedby={`${countId}-${choice.name}`}
                  onChange={(event) => set([choice.name], event.target.checked)}
                />{' '}
                <code>{choice.name}</code>
              </label>
              <p id={`${countId}-${choice.name}`} className="webhook-help">
                {choice.description}
              </p>
            </div>
          ))}
        </fieldset>
      )}
      {unseen > 0 && (
        <p className="webhook-help">
          It also wants {unseen} event(s) of modules you may not view; they are kept as they are.
        </p>
      )}
      <p id={countId} className={error ? 'field-error' : 'webhook-help'} aria-live="polite">
        {error ?? (chosen.length === 0 ? 'Tick at least one event.' : `${chosen.length} event(s) ticked.`)}
      </p>
    </fieldset>
  );
}

interface ModuleEventsGroupProps {
  group: ModuleEvents;
  ticked: ReadonlySet<string>;
  onSet: (names: readonly string[], on: boolean) => void;
}

/** One module's record events, and a box that ticks or clears all of them (half-ticked when some are). */
function ModuleEventsGroup({ group, ticked, onSet }: ModuleEventsGroupProps) {
  const every = useRef<HTMLInputElement>(null);
  const names = group.events.map((event) => event.name);
  const count = names.filter((name) => ticked.has(name)).length;
  const some = count > 0 && count < names.length;
  useEffect(() => {
    if (every.current) every.current.indeterminate = some;
  }, [some]);
  return (
    <fieldset className="webhook-events__group">
      <legend>{group.label}</legend>
      <label className="webhook-events__event webhook-events__every">
        <input
          ref={every}
          type="checkbox"
          checked={count === names.length}
          onChange={(event) => onSet(names, event.target.checked)}
        />{' '}
        All<span className="visually-hidden"> events of {group.label}</span>
      </label>
      {group.events.map((choice) => (
        <label key={choice.name} className="webhook-events__event" title={choice.description}>
          <input
            type="checkbox"
            checked={ticked.has(choice.name)}
            onChange={(event) => onSet([choice.name], event.target.checked)}
          />{' '}
          {eventLabel(choice.name)}
        </label>
      ))}
    </fieldset>
  );
}
