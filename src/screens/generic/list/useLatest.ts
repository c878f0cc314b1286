import { useEffect, useRef, type RefObject } from 'react';

/**
 * A ref that follows `value` after each render, so that a listener or a timer calls the owner's latest callback
 * without starting over each time the owner passes a new one. The ref itself stays the same: an effect that lists it
 * among its dependencies is not run again for it.
 */
export function useLatest<T>(value: T): RefObject<T> {
  const latest = useRef(value);
  useEffect(() => {
    latest.current = value;
  });
  return latest;
}
