import { lazy, Suspense, useEffect, useState } from 'react';
import './GoAnywhereButton.css';

/** The palette itself is its own chunk, loaded when first opened: the header carries only this button. */
const GoAnywhereDialog = lazy(() => import('./GoAnywhereDialog.tsx').then((chunk) => ({ default: chunk.GoAnywhereDialog })));

const onApple = () => /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** The header's Go anywhere button, with the shortcut that opens it from anywhere in the console: Ctrl+K, or ⌘K on a Mac. */
export function GoAnywhereButton() {
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key.toLowerCase() !== 'k' || !(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      event.preventDefault();
      setOpen(true);
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  return (
    <>
      <button type="button" className="go-anywhere-button" aria-haspopup="dialog" aria-keyshortcuts="Control+K Meta+K" onClick={() => setOpen(true)}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="11" cy="11" r="6" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M20 20l-4.5-4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span className="go-anywhere-button__label">Go anywhere</span>
        <kbd aria-hidden="true">{onApple() ? '⌘K' : 'Ctrl K'}</kbd>
      </button>
      {open && (
        <Suspense fallback={null}>
          <GoAnywhereDialog onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
