import { MutationObserver, onlineManager } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from './queryClient.ts';

describe('queryClient', () => {
  afterEach(() => onlineManager.setOnline(true));

  it('ERR-04 offline, a save is still attempted (and so fails with its toast) rather than paused', async () => {
    onlineManager.setOnline(false);
    const save = vi.fn().mockRejectedValue(new Error('No Internet Connection.'));
    const observer = new MutationObserver(queryClient, { mutationFn: save });
    const outcome = await Promise.race([
      observer.mutate(undefined).then(() => 'saved', (error: Error) => error.message),
      new Promise((resolve) => setTimeout(() => resolve('paused'), 500)),
    ]);
    expect(outcome).toBe('No Internet Connection.');
    expect(save).toHaveBeenCalledOnce();
  });
});
