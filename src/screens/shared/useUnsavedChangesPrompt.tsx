import { useEffect, useRef, type ReactNode } from 'react';
import { useBlocker } from 'react-router-dom';
import { ConfirmDialog } from './ConfirmDialog.tsx';

export interface UseUnsavedChangesPromptResult {
  /** Call before navigating away after a successful save, so that navigation is not blocked. */
  allowLeaving: () => void;
  /** The "leave without saving?" dialog while a navigation is held, else null. */
  prompt: ReactNode;
}

/** Holds navigation away from a form with unsaved changes until the user confirms (and warns on unload). */
export function useUnsavedChangesPrompt(dirty: boolean): UseUnsavedChangesPromptResult {
  const leaving = useRef(false);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && !leaving.current && currentLocation.pathname !== nextLocation.pathname);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const prompt =
    blocker.state === 'blocked' ? (
      <ConfirmDialog title="Leave without saving?" confirmLabel="Leave" cancelLabel="Stay" destructive onConfirm={() => blocker.proceed()} onCancel={() => blocker.reset()}>
        <p>Your changes have not been saved and will be lost.</p>
      </ConfirmDialog>
    ) : null;

  return {
    allowLeaving: () => {
      leaving.current = true;
    },
    prompt,
  };
}
