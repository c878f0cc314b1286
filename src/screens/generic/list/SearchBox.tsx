import { useEffect, useId, useRef, useState } from 'react';
import { useLatest } from './useLatest.ts';

/** Search waits this long after the last keystroke before it changes the list. */
export const SEARCH_DEBOUNCE_MS = 300;

/** The key that puts focus in the screen's search box, from anywhere but a field being typed in. */
const SEARCH_KEY = '/';

export interface SearchBoxProps {
  value: string;
  label: string;
  onSearch: (value: string) => void;
  /** Keeps the label for assistive technology only, the placeholder saying it on screen (a compact toolbar). */
  hideLabel?: boolean;
}

/** True when a key pressed here is typing: a text field, a select or editable content has the focus. */
function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement)
    return !['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'range', 'color'].includes(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement || target.isContentEditable;
}

/**
 * A search input that updates the list once typing pauses or the box is left. "/" focuses it (unless the user is typing in a field or a
 * dialog is open); Escape in it clears the search at once.
 */
export function SearchBox({ value, label, onSearch, hideLabel = false }: SearchBoxProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // Back/forward or a shared link can change the search in the URL: follow it.
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  // The latest callback, so a re-render of the list (a new `onSearch`) does not start the pause over.
  const search = useLatest(onSearch);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => search.current(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, search]);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (
        event.key !== SEARCH_KEY ||
        event.ctrlKey ||
        event.metaKey ||
        event.altKey ||
        event.defaultPrevented ||
        isTyping(event.target)
      )
        return;
      if (
        document.querySelector('[aria-modal="true"], dialog[open]') ||
        (event.target instanceof Element && event.target.closest('[role="dialog"]'))
      )
        return;
      event.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
  return (
    <div className="search-box" role="search">
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <input
        ref={input}
        id={id}
        type="search"
        value={text}
        placeholder={hideLabel ? label : undefined}
        aria-keyshortcuts={SEARCH_KEY}
        onChange={(event) => setText(event.target.value)}
        // Leaving the box applies what was typed at once: a pause ending after the user moved on (a row opened,
        // another screen) would bring them back to the list.
        onBlur={() => text !== value && search.current(text)}
        onKeyDown={(event) => {
          if (event.key !== 'Escape' || text === '') return;
          event.preventDefault();
          setText('');
          if (value !== '') search.current('');
        }}
      />
    </div>
  );
}
