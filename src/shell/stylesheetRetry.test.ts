import { describe, expect, it, vi } from 'vitest';
import { refetchFailedStylesheets, watchFailedStylesheets } from './stylesheetRetry.ts';

const sheetLinks = (href: string) =>
  [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter((link) => link.href.endsWith(href));

describe('a stylesheet that failed to load', () => {
  it('leaves the document while its own listeners hear the failure, and is fetched again on request', async () => {
    watchFailedStylesheets();
    const failed = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/assets/Dropdown.css' });
    const loaded = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/assets/Table.css' });
    const script = Object.assign(document.createElement('link'), { rel: 'modulepreload', href: '/assets/Table.js' });
    document.head.append(failed, loaded, script);
    const heard = vi.fn();
    failed.addEventListener('error', heard);

    failed.dispatchEvent(new Event('error'));
    loaded.dispatchEvent(new Event('load'));
    script.dispatchEvent(new Event('error'));

    expect(heard).toHaveBeenCalledTimes(1);
    expect(sheetLinks('/assets/Dropdown.css')).toEqual([]);
    expect(loaded.isConnected).toBe(true);
    expect(script.isConnected).toBe(true);

    let settled = false;
    const refetched = refetchFailedStylesheets().then(() => (settled = true));
    const [again] = sheetLinks('/assets/Dropdown.css');
    expect(again).toBeDefined();
    await Promise.resolve();
    expect(settled).toBe(false);
    again?.dispatchEvent(new Event('load'));
    await refetched;
    expect(again?.isConnected).toBe(true);
    expect(sheetLinks('/assets/Table.css')).toHaveLength(1);

    // Fetched once: a later request has nothing to fetch.
    await refetchFailedStylesheets();
    expect(sheetLinks('/assets/Dropdown.css')).toHaveLength(1);
  });
});
