import { MutationObserver, onlineManager, QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient, unlessJustFetched } from './queryClient.ts';

describe('queryClient', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('ERR-04 offline, a save is still attempted (and so fails with its toast) rather than paused', async () => {
    onlineManager.setOnline(false);
    const save = vi.fn().mockRejectedValue(new Error('No Internet Connection.'));
    const observer = new MutationObserver(queryClient, { mutationFn: save });
    const outcome = await Promise.race([
      observer.mutate(undefined).then(
        () => 'saved',
        (error: Error) => error.message,
      ),
      new Promise((resolve) => setTimeout(() => resolve('paused'), 500)),
    ]);
    expect(outcome).toBe('No Internet Connection.');
    expect(save).toHaveBeenCalledOnce();
  });
});

describe('a screen query fetched a moment ago', () => {
  it('is not asked for again as its screen appears, unless a change since marked it out of date', async () => {
    const client = new QueryClient();
    const key = ['resource', 'vouchers', 'list', { _page: 1 }];
    client.setQueryData(key, { data: [{ id: 1, version: 1 }] });
    const query = () => client.getQueryCache().find({ queryKey: key })!;
    expect(unlessJustFetched(query())).toBe(false);
    // A form's save invalidates the resource's lists while the list is not on screen.
    await client.invalidateQueries({ queryKey: ['resource', 'vouchers'] });
    expect(unlessJustFetched(query())).toBe(true);
  });

  it('is asked for again once the moment has passed', () => {
    const client = new QueryClient();
    const key = ['home'];
    client.setQueryData(key, { data: {} }, { updatedAt: Date.now() - 60_000 });
    expect(unlessJustFetched(client.getQueryCache().find({ queryKey: key })!)).toBe(true);
  });
});
