import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import type { AreaRoute } from '../generated/types.ts';
import { usePermissions } from '../permissions/usePermissions.ts';
import { Dialog } from '../screens/shared/Dialog.tsx';
import { matchingScreens, reachableScreens, recordPath } from './destinations.ts';
import { takeTypedAhead } from './goAnywhereShortcut.ts';
import { RECORD_SEARCH_MIN_LENGTH, useRecordSearch } from './useRecordSearch.ts';
import '../screens/screens.css';
import './GoAnywhere.css';

export interface GoAnywhereDialogProps {
  onClose: () => void;
  areas?: readonly AreaRoute[];
}

interface Choice {
  key: string;
  label: string;
  /** What tells a record from others with a like label: its e-mail and mobile, a voucher's discount… */
  details?: string;
  /** The area of a screen, the resource of a record. */
  hint: string;
  path: string;
}

interface ChoiceGroup {
  key: string;
  label: string;
  choices: Choice[];
}

/**
 * Go anywhere: one box that finds the screens the user may open (by their label and area) and, from three characters
 * on, records of every resource they may view (GET search). A combobox over a grouped listbox: the arrows move
 * through the choices, Enter opens the one marked (once the records asked for are there), Escape closes and gives focus
 * back to what opened it. What was typed before the box had focus (goAnywhereShortcut.ts) becomes its query.
 */
export function GoAnywhereDialog({ onClose, areas = AREAS }: GoAnywhereDialogProps) {
  const navigate = useNavigate();
  const { permissions } = usePermissions();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const { found, searching } = useRecordSearch(query);
  /** The query Enter was pressed on while its records were being asked for: the choice is made when they are there. */
  const enterOn = useRef<string | null>(null);
  const listId = useId();
  const screens = useMemo(() => reachableScreens(permissions, areas), [permissions, areas]);

  const groups: ChoiceGroup[] = [
    {
      key: 'screens',
      label: 'Screens',
      choices: matchingScreens(screens, query).map((screen) => ({
        key: screen.path,
        label: screen.label,
        hint: screen.area,
        path: screen.path,
      })),
    },
    ...found.map((group) => ({
      key: group.resource,
      label: group.label,
      choices: group.records.flatMap((record) => {
        const path = recordPath(permissions, areas, group.resource, record.id);
        return path
          ? [
              {
                key: `${group.resource}-${record.id}`,
                label: record.label,
                details: record.details.join(' · '),
                hint: group.label,
                path,
              },
            ]
          : [];
      }),
    })),
  ].filter((group) => group.choices.length > 0);
  const choices = groups.flatMap((group) => group.choices);
  const current = choices.length ? Math.min(active, choices.length - 1) : -1;
  const optionId = (index: number) => `${listId}-${index}`;

  useEffect(() => {
    if (current >= 0) document.getElementById(`${listId}-${current}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [current, listId]);

  const choose = (choice: Choice) => {
    onClose();
    void navigate(choice.path);
  };

  useEffect(() => {
    if (enterOn.current !== query || searching) return;
    enterOn.current = null;
    const choice = choices[current];
    if (choice) choose(choice);
  });

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (choices.length) setActive((current + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      const choice = choices[current];
      if (searching) enterOn.current = query;
      else if (choice) choose(choice);
    }
  };

  const tooShort = query.trim().length < RECORD_SEARCH_MIN_LENGTH;
  const status = searching
    ? 'Searching records…'
    : tooShort
      ? `${choices.length === 0 ? 'No screen matches. ' : ''}Type ${RECORD_SEARCH_MIN_LENGTH} characters or more to find records too.`
      : choices.length === 0
        ? 'No screen or record matches.'
        : '';
  let index = -1;
  return (
    <Dialog title="Go anywhere" onClose={onClose}>
      <div className="go-anywhere">
        <input
          type="text"
          className="go-anywhere__input"
          role="combobox"
          aria-label="Screen or record"
          aria-expanded={choices.length > 0}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current >= 0 ? optionId(current) : undefined}
          placeholder="Screen, subscriber, company…"
          autoComplete="off"
          spellCheck={false}
          value={query}
          onChange={(event) => {
            setQuery(event.target.value);
            setActive(0);
            enterOn.current = null;
          }}
          onKeyDown={onKeyDown}
          onFocus={() => {
            const typed = takeTypedAhead();
            if (!typed) return;
            // An Enter typed ahead is a line break; keys after it are dropped, the choice being made on what came before.
            const [text = '', ...entered] = typed.split('\n');
            setQuery(text);
            if (entered.length) enterOn.current = text;
          }}
        />
        <div id={listId} role="listbox" aria-label="Screens and records" className="go-anywhere__list">
          {groups.map((group) => (
            <div key={group.key} role="group" aria-labelledby={`${listId}-${group.key}`}>
              <div id={`${listId}-${group.key}`} role="presentation" className="go-anywhere__group">
                {group.label}
              </div>
              {group.choices.map((choice) => {
                index += 1;
                const position = index;
                return (
                  <div
                    key={choice.key}
                    id={optionId(position)}
                    role="option"
                    aria-selected={position === current}
                    className="go-anywhere__option"
                    // Keeps focus in the box, so the arrows and Enter go on working after a click elsewhere in the list.
                    onMouseDown={(event) => event.preventDefault()}
                    onMouseMove={() => position !== current && setActive(position)}
                    onClick={() => choose(choice)}
                  >
                    <span className="go-anywhere__text">
                      <span className="go-anywhere__label">{choice.label}</span>
                      {choice.details && <span className="go-anywhere__details">{choice.details}</span>}
                    </span>
                    <span className="go-anywhere__hint">{choice.hint}</span>
                  </div>
                );
              })}
            </div>
          ))}
        </div>
        <p className="go-anywhere__status" role="status">
          {status}
        </p>
      </div>
    </Dialog>
  );
}
