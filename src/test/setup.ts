import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { File as NodeFile } from 'node:buffer';
import { afterEach } from 'vitest';
import { syncSession } from '../session/sessionStore.ts';

// Lazy chunks load slowly on a busy 2-core machine (several times over in a loaded run); findBy/waitFor would give up
// after the default 1 s. A condition met sooner ends the wait sooner.
configure({ asyncUtilTimeout: 20_000 });

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

// Nor a stream of its bytes, which Node's fetch reads from a Blob it is given as a body (a mock server's CSV answer).
if (!('stream' in Blob.prototype)) {
  Object.defineProperty(Blob.prototype, 'stream', {
    value(this: Blob): ReadableStream<Uint8Array> {
      const bytes = this.arrayBuffer();
      return new ReadableStream({
        async start(controller) {
          controller.enqueue(new Uint8Array(await bytes));
          controller.close();
        },
      });
    },
  });
}

// Node 24's fetch (undici 7) builds each part of a multipart body it parses with the global File, which jsdom replaces
// with its own, and then refuses it as not a File: a mock server's handler reading request.formData() of an upload
// parses with Node's File put back for the call (vitest-dev/vitest#11300 does the same in the jsdom environment).
const parseFormData = Request.prototype.formData;
Request.prototype.formData = async function formDataWithNodeFile(this: Request): Promise<FormData> {
  const jsdomFile = globalThis.File;
  globalThis.File = NodeFile as unknown as typeof File;
  try {
    return await parseFormData.call(this);
  } finally {
    globalThis.File = jsdomFile;
  }
};

// jsdom has no scrolling; the console's scroll restoration calls this on every navigation.
window.scrollTo = () => undefined;

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
  // The session store caches what storage held; let it (and its logout listeners) see the cleared storage.
  syncSession();
});
