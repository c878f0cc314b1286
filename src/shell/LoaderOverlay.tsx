import { useSyncExternalStore } from 'react';
import { LOADER_FADE_IN_S } from '../config/constants.ts';
import { loader } from './loader.ts';
import './LoaderOverlay.css';

/** LOADER-01: a full-page overlay with three pulsing dots while the loader count is above zero. */
export function LoaderOverlay() {
  const active = useSyncExternalStore(loader.subscribe, () => loader.count() > 0);
  if (!active) return null;
  return (
    <div
      className="loader-overlay"
      role="status"
      aria-live="polite"
      style={{ animationDuration: `${LOADER_FADE_IN_S}s` }}
    >
      <span className="visually-hidden">Loading…</span>
      <span className="loader-dot" aria-hidden="true" />
      <span className="loader-dot" aria-hidden="true" />
      <span className="loader-dot" aria-hidden="true" />
    </div>
  );
}
