import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { DeferredToastHost } from './DeferredToastHost.tsx';
import { toastErrorText } from './textToast.tsx';
import { toastError, toastSuccess } from './toasts.tsx';
import { ToastHost } from './ToastHost.tsx';

const progressBarOf = (toast: HTMLElement) => within(toast.parentElement!).getByRole('progressbar', { hidden: true });

describe('toasts', () => {
  beforeEach(() => {
    // react-toastify also pauses while the window has no focus; jsdom's never has it.
    vi.spyOn(document, 'hasFocus').mockReturnValue(true);
  });

  it('TOAST-01 a toast has a close button, a title, a message and a progress bar', async () => {
    render(<ToastHost />);
    act(() => toastSuccess('Voucher saved', 'Saved'));
    const toast = (await screen.findByText('Voucher saved')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('Saved')).toBeInTheDocument();
    expect(within(toast.parentElement!).getByRole('button', { name: /close/i })).toBeInTheDocument();
    expect(progressBarOf(toast)).toBeInTheDocument();
    await userEvent.click(within(toast.parentElement!).getByRole('button', { name: /close/i }));
  });

  it('TOAST-01 the close button is optional per toast', async () => {
    render(<ToastHost />);
    act(() => toastSuccess('Saved quietly', 'Saved', { closeButton: false }));
    act(() => toastError('Could not save', 'Error', { closeButton: false }));
    act(() => toastSuccess('Saved with a button'));
    for (const message of ['Saved quietly', 'Could not save']) {
      const toast = (await screen.findByText(message)).closest('.Toastify__toast') as HTMLElement;
      expect(within(toast).queryByRole('button', { name: /close/i }), message).not.toBeInTheDocument();
    }
    const withButton = (await screen.findByText('Saved with a button')).closest('.Toastify__toast') as HTMLElement;
    expect(within(withButton).getByRole('button', { name: /close/i })).toBeInTheDocument();
  });

  it('TOAST-01 a toast raised before the container has loaded (it loads once the first screen is idle) is shown when it has', async () => {
    act(() => toastSuccess('Raised early', 'Saved'));
    render(<DeferredToastHost />);
    const toast = (await screen.findByText('Raised early')).closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('Saved')).toBeInTheDocument();
  });

  it('TOAST-01 an error toast is titled "Error" unless told otherwise, and renders an HTML message', async () => {
    render(<ToastHost />);
    act(() => toastError('Could <b>not</b> save'));
    const bold = await screen.findByText('not');
    expect(bold.tagName).toBe('B');
    const toast = bold.closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('Error')).toBeInTheDocument();
  });

  it('TOAST-01 a text error toast (the HTTP wrapper before its client loads) shows its message as text, titled "Error"', async () => {
    render(<ToastHost />);
    act(() => toastErrorText('No connection <b>now</b>'));
    const message = await screen.findByText('No connection <b>now</b>');
    const toast = message.closest('[role="alert"]') as HTMLElement;
    expect(within(toast).getByText('Error')).toBeInTheDocument();
    expect(toast.querySelector('b')).toBeNull();
  });

  it('TOAST-02 toasts sit top-right, fade in and out, and pause while hovered', async () => {
    render(<ToastHost />);
    act(() => toastSuccess('Hover me'));
    const toast = (await screen.findByText('Hover me')).closest('.Toastify__toast') as HTMLElement;
    expect(toast.closest('.Toastify__toast-container')).toHaveClass('Toastify__toast-container--top-right');
    expect(toast).toHaveClass('toast-fade-in');
    fireEvent.animationEnd(toast);
    await waitFor(() => expect(progressBarOf(toast)).toHaveStyle({ animationPlayState: 'running' }));
    fireEvent.mouseEnter(toast);
    expect(progressBarOf(toast)).toHaveStyle({ animationPlayState: 'paused' });
    await userEvent.click(within(toast).getByRole('button', { name: /close/i }));
    expect(toast).toHaveClass('toast-fade-out');
  });

  it('TOAST-03 time-out 5000 ms, 1000 ms more after the pointer leaves, fade easing 300 ms', async () => {
    render(<ToastHost />);
    act(() => toastSuccess('Timed'));
    const toast = (await screen.findByText('Timed')).closest('.Toastify__toast') as HTMLElement;
    expect(progressBarOf(toast)).toHaveStyle({ animationDuration: '5000ms' });
    expect(toast.closest('.Toastify__toast-container')).toHaveStyle({ '--toast-easing': '300ms' });
    fireEvent.mouseEnter(toast);
    expect(progressBarOf(toast)).toHaveStyle({ animationPlayState: 'paused' });
    fireEvent.mouseLeave(toast);
    await waitFor(() => {
      const after = screen.getByText('Timed').closest('.Toastify__toast') as HTMLElement;
      expect(progressBarOf(after)).toHaveStyle({ animationDuration: '1000ms', animationPlayState: 'running' });
    });
  });

  it('TOAST-03 a toast keeps its 5000 ms once its fade-in ends: the first start is not a pointer leaving', async () => {
    render(<ToastHost />);
    act(() => toastSuccess('Not hovered'));
    const toast = (await screen.findByText('Not hovered')).closest('.Toastify__toast') as HTMLElement;
    expect(progressBarOf(toast)).toHaveStyle({ animationPlayState: 'paused' });
    fireEvent.animationEnd(toast);
    await waitFor(() => expect(progressBarOf(toast)).toHaveStyle({ animationPlayState: 'running' }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const after = screen.getByText('Not hovered').closest('.Toastify__toast') as HTMLElement;
    expect(progressBarOf(after)).toHaveStyle({ animationDuration: '5000ms', animationPlayState: 'running' });
  });

  it('TOAST-04 an HTML message is sanitised: no script, event handler or javascript: URL survives', async () => {
    render(<ToastHost />);
    act(() =>
      toastError(
        '<img src="x" onerror="window.__pwned=1"><a href="javascript:alert(1)">link</a><script>window.__pwned=2</script>Careful',
      ),
    );
    const toast = (await screen.findByText(/Careful/)).closest('[role="alert"]') as HTMLElement;
    expect(toast.querySelector('script')).toBeNull();
    expect(toast.querySelector('img')?.getAttribute('onerror')).toBeNull();
    expect(within(toast).getByText('link')).not.toHaveAttribute('href');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it('a success toast may carry an action: pressing it runs the action once and closes the toast', async () => {
    render(<ToastHost />);
    const undo = vi.fn();
    act(() => toastSuccess('Voucher moved to the trash.', undefined, { action: { label: 'Undo', onClick: undo } }));
    const toast = (await screen.findByText('Voucher moved to the trash.')).closest('.Toastify__toast') as HTMLElement;
    await userEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    expect(undo).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(toast).toHaveClass('toast-fade-out'));
  });

  it('an action with a key is also Ctrl (or ⌘) and that key from anywhere but a text field, once, while the toast shows', async () => {
    const user = userEvent.setup();
    render(
      <>
        <ToastHost />
        <label>
          Note <input />
        </label>
      </>,
    );
    const undo = vi.fn();
    act(() =>
      toastSuccess('Voucher moved to the trash.', undefined, { action: { label: 'Undo', onClick: undo, key: 'z' } }),
    );
    const toast = (await screen.findByText('Voucher moved to the trash.')).closest('.Toastify__toast') as HTMLElement;
    expect(within(toast).getByRole('button', { name: 'Undo' })).toHaveAttribute(
      'aria-keyshortcuts',
      'Control+Z Meta+Z',
    );
    // In a text field Ctrl+Z is the field's own undo.
    await user.click(screen.getByLabelText('Note'));
    await user.keyboard('{Control>}z{/Control}');
    expect(undo).not.toHaveBeenCalled();
    (document.activeElement as HTMLElement).blur();
    await user.keyboard('{Control>}z{/Control}');
    expect(undo).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(toast).toHaveClass('toast-fade-out'));
    await user.keyboard('{Meta>}z{/Meta}');
    expect(undo).toHaveBeenCalledTimes(1);
  });
});
