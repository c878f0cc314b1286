import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { syncSession } from '../session/sessionStore.ts';

// Lazy chunks load slowly on a busy 2-core CI machine; findBy/waitFor would give up after the default 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no scrolling; the console's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  // The session store caches what storage held; let it (and its logout listeners) see the cleared storage.
  syncSession();
});
