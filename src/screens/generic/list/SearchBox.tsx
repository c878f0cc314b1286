import { useEffect, useId, useRef, useState } from 'react';

/** Search waits this long after the last keystroke before it changes the list. */
export const SEARCH_DEBOUNCE_MS = 300;

export interface SearchBoxProps {
  value: string;
  label: string;
  onSearch: (value: string) => void;
}

/** A search input that updates the list once typing pauses. */
export function SearchBox({ value, label, onSearch }: SearchBoxProps) {
  const id = useId();
  const [text, setText] = useState(value);
  const [shown, setShown] = useState(value);
  // Back/forward or a shared link can change the search in the URL: follow it.
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  // The latest callback, so a re-render of the list (a new `onSearch`) does not start the pause over.
  const search = useRef(onSearch);
  useEffect(() => {
    search.current = onSearch;
  });
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => search.current(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value]);
  return (
    <div className="search-box" role="search">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="search" value={text} onChange={(event) => setText(event.target.value)} />
    </div>
  );
}
