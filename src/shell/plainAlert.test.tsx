import { act, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/** Fresh modules per test: where the toast container is is the page's state, held by plainAlert.ts. */
async function freshToasts() {
  vi.resetModules();
  const alerts = await import('./plainAlert.ts');
  const toasts = await import('./toasts.tsx');
  return { ...alerts, ...toasts };
}

describe('errors while the toast container cannot come', () => {
  beforeEach(() => {
    for (const alert of document.querySelectorAll('.plain-alert')) alert.remove();
  });

  it('ERR-05 an error raised while the container is on the way shows without it once its code cannot be fetched, and so do the next', async () => {
    const { toastError, markToastHostFailed } = await freshToasts();
    act(() => toastError('Some error occurred. Please contact Admin.'));
    expect(document.querySelector('.plain-alert')).toBeNull();
    act(() => markToastHostFailed());
    expect(screen.getByRole('alert')).toHaveTextContent('ErrorSome error occurred. Please contact Admin.');
    act(() => toastError('Still no answer.'));
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toEqual([
      'ErrorSome error occurred. Please contact Admin.',
      'ErrorStill no answer.',
    ]);
  });

  it('once the container is on the page, a failure to fetch it again changes nothing and nothing is shown twice', async () => {
    const { toastError, markToastHostFailed, markToastHostMounted } = await freshToasts();
    act(() => toastError('Kept by the library.'));
    act(() => markToastHostMounted());
    act(() => markToastHostFailed());
    expect(document.querySelector('.plain-alert')).toBeNull();
  });
});
