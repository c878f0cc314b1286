const failedHrefs = new Set<string>();

/**
 * Notes each stylesheet that fails to load (offline for a moment) and takes it out of the document. Vite's preloading
 * asks for a chunk's stylesheet once per page, so a chunk fetched again after a failure would otherwise show its
 * screen without its styles: `refetchFailedStylesheets` puts them back. Listening while the event is captured still
 * lets the link's own listeners (Vite's, which fail the chunk's load) hear the failure.
 */
export function watchFailedStylesheets(): void {
  document.addEventListener(
    'error',
    (event) => {
      const link = event.target;
      if (!(link instanceof HTMLLinkElement) || link.rel !== 'stylesheet') return;
      failedHrefs.add(link.href);
      link.remove();
    },
    true,
  );
}

/** Fetches again every stylesheet that failed; settles once each has loaded or failed again. */
export function refetchFailedStylesheets(): Promise<void> {
  const hrefs = [...failedHrefs];
  failedHrefs.clear();
  const loads = hrefs.map(
    (href) =>
      new Promise<void>((settle) => {
        const link = Object.assign(document.createElement('link'), { rel: 'stylesheet', href, crossOrigin: '' });
        link.addEventListener('load', () => settle());
        link.addEventListener('error', () => settle());
        document.head.append(link);
      }),
  );
  return Promise.all(loads).then(() => undefined);
}
