import { useLayoutEffect, useState } from 'react';
import type { GoAnywhereDialog } from './GoAnywhereDialog.tsx';
import { attachGoAnywhere, closeGoAnywhere, openGoAnywhere } from './goAnywhereShortcut.ts';
import './GoAnywhereButton.css';

const onApple = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/**
 * The header's Go anywhere button; the shortcut that opens it from anywhere in the console (Ctrl+K, or ⌘K on a Mac) is
 * heard from the start (goAnywhereShortcut.ts). The palette is its own chunk, loaded when first opened, and shown once
 * it is there rather than through Suspense, whose throttled reveal would keep it from the keys typed meanwhile.
 */
export function GoAnywhereButton() {
  const [open, setOpen] = useState(false);
  const [palette, setPalette] = useState<{ Dialog: typeof GoAnywhereDialog } | null>(null);

  // Before the first paint, so that a shortcut pressed as the header appears opens the palette.
  useLayoutEffect(
    () =>
      attachGoAnywhere((wanted) => {
        setOpen(wanted);
        if (wanted) {
          import('./GoAnywhereDialog.tsx').then(
            (chunk) => setPalette({ Dialog: chunk.GoAnywhereDialog }),
            closeGoAnywhere,
          );
        }
      }),
    [],
  );

  return (
    <>
      <button
        type="button"
        className="go-anywhere-button"
        aria-haspopup="dialog"
        aria-keyshortcuts="Control+K Meta+K"
        onClick={openGoAnywhere}
      >
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M20 20l-4.5-4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="go-anywhere-button__label">Go anywhere</span>
        <kbd aria-hidden="true">{onApple() ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
      {open && palette && <palette.Dialog onClose={closeGoAnywhere} />}
    </>
  );
}
