import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { createBrowserAppHistory, createMemoryAppHistory, type AppHistory } from '../../routing/appHistory.ts';
import { AppRouter } from '../../routing/AppRouter.tsx';
import { useUnsavedChangesPrompt } from './useUnsavedChangesPrompt.tsx';

/** A form that is dirty once typed in, with every way out of it: a link, navigate() and a save. */
function DraftForm() {
  const [dirty, setDirty] = useState(false);
  const { allowLeaving, prompt } = useUnsavedChangesPrompt(dirty);
  const navigate = useNavigate();
  return (
    <>
      <h1>Draft</h1>
      <input aria-label="Name" onChange={() => setDirty(true)} />
      <Link to="/elsewhere">Elsewhere</Link>
      <Link to="/draft?tab=more">Same page</Link>
      <button type="button" onClick={() => navigate('/elsewhere')}>
        Cancel
      </button>
      <button
        type="button"
        onClick={() => {
          allowLeaving();
          navigate('/elsewhere');
        }}
      >
        Save
      </button>
      {prompt}
    </>
  );
}

const routes = [
  { path: '/draft', element: <DraftForm /> },
  { path: '/elsewhere', element: <h1>Elsewhere</h1> },
  { path: '/start', element: <h1>Start</h1> },
];

function renderDraft(history: AppHistory) {
  render(<AppRouter history={history} routes={routes} />);
  return { history, user: userEvent.setup() };
}

const leaveDialog = () => screen.findByRole('dialog', { name: 'Leave without saving?' });
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('leaving a form with unsaved changes', () => {
  it('holds a link until the user chooses: Stay keeps the form and its input, Leave follows the link', async () => {
    const { history, user } = renderDraft(createMemoryAppHistory(['/draft']));
    await user.type(screen.getByLabelText('Name'), 'Asha');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Stay' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(history.location.pathname).toBe('/draft');
    expect(screen.getByLabelText('Name')).toHaveValue('Asha');

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Leave' }));
    expect(await heading('Elsewhere')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/elsewhere');
  });

  it('holds navigate() the same way', async () => {
    const { history, user } = renderDraft(createMemoryAppHistory(['/draft']));
    await user.type(screen.getByLabelText('Name'), 'Asha');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Stay' }));
    expect(history.location.pathname).toBe('/draft');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(await leaveDialog()).getByRole('button', { name: 'Leave' }));
    expect(await heading('Elsewhere')).toBeInTheDocument();
  });

  it('asks nothing of an untouched form, after a save, or for another address of the same page', async () => {
    const untouched = renderDraft(createMemoryAppHistory(['/draft']));
    await untouched.user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await heading('Elsewhere')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    act(() => untouched.history.push('/draft'));
    await untouched.user.type(await screen.findByLabelText('Name'), 'Asha');
    await untouched.user.click(screen.getByRole('link', { name: 'Same page' }));
    await waitFor(() => expect(untouched.history.location.search).toBe('?tab=more'));
    await untouched.user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await heading('Elsewhere')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  describe("with the browser's back and forward buttons", () => {
    afterEach(() => window.history.replaceState(null, '', '/'));

    /** The browser's history at /start, then the form: Back leads to /start. */
    function renderInBrowser() {
      window.history.replaceState(null, '', '/start');
      const rendered = renderDraft(createBrowserAppHistory());
      act(() => rendered.history.push('/draft'));
      return rendered;
    }

    it('holds Back: the form stays on Stay, and Back is carried out on Leave', async () => {
      const { history, user } = renderInBrowser();
      await user.type(await screen.findByLabelText('Name'), 'Asha');
      act(() => window.history.back());
      await user.click(within(await leaveDialog()).getByRole('button', { name: 'Stay' }));
      // The browser had already gone back: it is taken forward again to the form, which kept its input.
      await waitFor(() => expect(window.location.pathname).toBe('/draft'));
      expect(history.location.pathname).toBe('/draft');
      expect(screen.getByLabelText('Name')).toHaveValue('Asha');

      act(() => window.history.back());
      await user.click(within(await leaveDialog()).getByRole('button', { name: 'Leave' }));
      expect(await heading('Start')).toBeInTheDocument();
      expect(window.location.pathname).toBe('/start');
    });

    it('holds Forward too, and leaves an untouched form without asking', async () => {
      const { history, user } = renderInBrowser();
      act(() => history.push('/elsewhere'));
      expect(await heading('Elsewhere')).toBeInTheDocument();
      act(() => window.history.back());
      await user.type(await screen.findByLabelText('Name'), 'Asha');
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

      act(() => window.history.forward());
      await user.click(within(await leaveDialog()).getByRole('button', { name: 'Stay' }));
      await waitFor(() => expect(window.location.pathname).toBe('/draft'));
      act(() => window.history.forward());
      await user.click(within(await leaveDialog()).getByRole('button', { name: 'Leave' }));
      expect(await heading('Elsewhere')).toBeInTheDocument();
      expect(window.location.pathname).toBe('/elsewhere');
    });
  });
});
