import { useSyncExternalStore } from 'react';

/** Below this width the sidebar is a drawer (the same width as the phone rules of Sidebar.css and AdminLayout.css). */
export const PHONE_MEDIA = '(max-width: 47.99rem)';

const query = () => (typeof window.matchMedia === 'function' ? window.matchMedia(PHONE_MEDIA) : null);

function subscribe(onChange: () => void): () => void {
  const media = query();
  media?.addEventListener('change', onChange);
  return () => media?.removeEventListener('change', onChange);
}

/** Whether the window is phone-sized now, following rotation and resizing. */
export function usePhoneLayout(): boolean {
  return useSyncExternalStore(subscribe, () => query()?.matches ?? false);
}
