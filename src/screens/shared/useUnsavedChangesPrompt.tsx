import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useAppHistory } from '../../routing/appHistoryContext.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';

export interface UseUnsavedChangesPromptResult {
  /** Call before navigating away after a successful save, so that navigation is not blocked. */
  allowLeaving: () => void;
  /** The "leave without saving?" dialog while a navigation is held, else null. */
  prompt: ReactNode;
}

/**
 * Holds navigation away from a form with unsaved changes (links, navigate(), back and forward) until the user
 * confirms, and warns on unload.
 */
export function useUnsavedChangesPrompt(dirty: boolean): UseUnsavedChangesPromptResult {
  const history = useAppHistory();
  const leaving = useRef(false);
  const [heldNavigation, setHeldNavigation] = useState<{ proceed: () => void } | null>(null);

  useEffect(() => {
    if (!dirty) return;
    return history.guard(
      (currentLocation, nextLocation) => !leaving.current && currentLocation.pathname !== nextLocation.pathname,
      (proceed) => setHeldNavigation({ proceed }),
    );
  }, [dirty, history]);

  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const prompt = heldNavigation ? (
    <ConfirmDialog
      title="Leave without saving?"
      confirmLabel="Leave"
      cancelLabel="Stay"
      destructive
      onConfirm={() => {
        setHeldNavigation(null);
        heldNavigation.proceed();
      }}
      onCancel={() => setHeldNavigation(null)}
    >
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
