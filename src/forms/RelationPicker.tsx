import { useEffect, useState, type KeyboardEvent } from 'react';
import { RELATION_SEARCH_DEBOUNCE_MS } from '../config/constants.ts';
import { useRelationLabel, useRelationOptions, type RelationOption } from './useRelationOptions.ts';

export interface RelationPickerProps {
  id: string;
  /** The related resource's API path: its `<api>/options` is searched. */
  api: string;
  /** The chosen record's id, or null when none is. */
  value: string | number | null;
  /** Called with the record picked, or null when the text is emptied. */
  onChange: (option: RelationOption | null) => void;
  /** What is being picked, e.g. "Country": names the list of matches. */
  label: string;
  placeholder?: string;
  required?: boolean;
  disabled?: boolean;
  invalid?: boolean;
  describedBy?: string;
  onFocus?: () => void;
  onBlur?: () => void;
}

/**
 * A related record chosen by typing (the ARIA combobox pattern): the server is searched as the user types
 * (`<api>/options?q=`), arrows move through the matches, Enter picks one, Escape gives up the typing. The current
 * value's label is asked for by its id, so it shows even when it is not among the first matches; emptying the text
 * clears the value. Free of the forms library, so that list filters and report screens use it too.
 */
export function RelationPicker({
  id,
  api,
  value,
  onChange,
  label,
  placeholder = 'Type to search…',
  required,
  disabled,
  invalid,
  describedBy,
  onFocus,
  onBlur,
}: RelationPickerProps) {
  const chosen = value === '' ? null : value;
  const current = useRelationLabel(api, chosen);
  /** What the user typed, while they are typing; null shows the chosen record's label. */
  const [typed, setTyped] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const found = useRelationOptions(api, search);
  // Until the server answers what was typed, the last answer narrowed to it (the server matches the same way).
  const needle = (typed ?? '').trim().toLowerCase();
  const matches = open ? (found.data ?? []).filter((option) => option.label.toLowerCase().includes(needle)) : [];
  const listId = `${id}-options`;

  useEffect(() => {
    if (typed === null) return;
    const timer = setTimeout(() => setSearch(typed), RELATION_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  useEffect(() => {
    if (active >= 0) document.getElementById(`${listId}-${active}`)?.scrollIntoView?.({ block: 'nearest' });
  }, [active, listId]);

  const pick = (option: RelationOption) => {
    current.remember(option);
    onChange(option);
    setTyped(null);
    setOpen(false);
    setActive(-1);
  };
  const giveUp = () => {
    setTyped(null);
    setOpen(false);
    setActive(-1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      if (matches.length > 0) setActive((index) => (index + step + matches.length) % matches.length);
    } else if (event.key === 'Enter' && open) {
      // Picks the active match rather than submitting the form.
      event.preventDefault();
      const option = matches[active];
      if (option) pick(option);
    } else if (event.key === 'Escape' && (open || typed !== null)) {
      event.preventDefault();
      giveUp();
    }
  };

  const text = typed ?? (chosen === null ? '' : (current.label ?? (current.isPending ? 'Loading…' : `#${chosen}`)));
  const searching = open && (found.isFetching || (typed !== null && typed.trim() !== search.trim()));

  return (
    <div className="combobox">
      <input
        id={id}
        name={id}
        type="text"
        className="form-control"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && matches[active] ? `${listId}-${active}` : undefined}
        aria-busy={searching || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedBy}
        required={required}
        disabled={disabled}
        placeholder={placeholder}
        value={text}
        onChange={(event) => {
          setTyped(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onKeyDown={onKeyDown}
        onClick={() => setOpen(true)}
        onFocus={onFocus}
        onBlur={() => {
          if (typed !== null && typed.trim() === '') onChange(null);
          giveUp();
          onBlur?.();
        }}
      />
      <ul id={listId} role="listbox" aria-label={`Matches for ${label}`} className="combobox__list" hidden={!open}>
        {matches.map((option, index) => (
          <li
            key={String(option.value)}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={String(option.value) === String(chosen)}
            className={index === active ? 'combobox__option combobox__option--active' : 'combobox__option'}
            // Keeps the focus in the input, so its blur does not close the list before the click lands.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => pick(option)}
          >
            {option.label}
          </li>
        ))}
        {open && !searching && matches.length === 0 && (
          <li className="combobox__empty">{found.isError ? 'Could not load the options' : 'No matches'}</li>
        )}
      </ul>
    </div>
  );
}
