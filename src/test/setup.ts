import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { syncSession } from '../session/sessionStore.ts';

// jsdom has no scrolling; ScrollRestoration calls this on every navigation.
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  // The session store caches what storage held; let it (and its logout listeners) see the cleared storage.
  syncSession();
});
