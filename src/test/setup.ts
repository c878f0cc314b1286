import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { syncSession } from '../session/sessionStore.ts';

// Lazy chunks load slowly on a busy 2-core CI machine; findBy/waitFor would give up after the default 1 s.
configure({ asyncUtilTimeout: 5000 });

// jsdom's Blob (and File) cannot read its bytes as a promise, which every browser's can (a chosen file's dry run reads
// its first slices so): read here as jsdom reads them, through FileReader.
if (!('arrayBuffer' in Blob.prototype)) {
  Object.defineProperty(Blob.prototype, 'arrayBuffer', {
    value(this: Blob): Promise<ArrayBuffer> {
      return new Promise((resolve, reject) => {
        const reader = new FileReader();
        reader.onload = () => resolve(reader.result as ArrayBuffer);
        reader.onerror = () => reject(reader.error);
        reader.readAsArrayBuffer(this);
      });
    },
  });
}

// jsdom has no scrolling; the console's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  // The session store caches what storage held; let it (and its logout listeners) see the cleared storage.
  syncSession();
});
