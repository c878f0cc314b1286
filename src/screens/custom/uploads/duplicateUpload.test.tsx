import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToastHost } from '../../../shell/ToastHost.tsx';
import { api, renderScreen, server, signInWith } from '../../testing/renderScreen.tsx';
import DataUploadScreen from '../DataUploadScreen.tsx';
import {
  addRoute,
  fillIn,
  logOf,
  period,
  serveCountries,
  serveFileEndpoint,
  STORAGE_URL,
  uploads,
} from './uploadTesting.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

/**
 * Upload `id`, whose completion the server answers with the 409 `questions` until the body carries `answered`; the
 * form filled in and sent. Returns what the console asked of the server, the bytes sent and the user.
 */
async function uploadAsked(id: number, questions: Record<string, string>, answered: string) {
  signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
  serveCountries();
  const sent = serveFileEndpoint();
  const calls: string[] = [];
  server.use(
    mock.post(api('uploads'), () =>
      HttpResponse.json(
        { data: { upload: { id }, upload_url: STORAGE_URL, complete_path: `uploads/${id}/complete` } },
        { status: 201 },
      ),
    ),
    mock.post(api(`uploads/${id}/complete`), async ({ request }) => {
      const body = (await request.json()) as Record<string, boolean>;
      calls.push(`complete ${JSON.stringify(body)}`);
      return body[answered]
        ? HttpResponse.json({ data: { id, status: 'processing' } })
        : HttpResponse.json({ message: Object.values(questions)[0], errors: questions }, { status: 409 });
    }),
    mock.post(api(`uploads/${id}/cancel`), () => {
      calls.push('cancel');
      return HttpResponse.json(
        { data: { id, status: 'cancelled' }, message: 'The upload is being cancelled.' },
        { status: 202 },
      );
    }),
    mock.get(api(`uploads/${id}/log`), () => HttpResponse.json(logOf({ status: 'published', rows: [1, 1, 0] }))),
  );
  const user = userEvent.setup();
  render(<ToastHost />);
  const { unmount } = renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
  await fillIn(user);
  await user.click(screen.getByRole('button', { name: 'Upload' }));
  return { calls, sent, user, unmount };
}

const PUBLISHED =
  "Records of this country, trade direction and period are already published: upload 3 (india-2026-10.csv, 1,000 rows). Replace them with this file, or add this file's rows to them.";

describe('a file for a month that has records, or uploaded again', () => {
  it('asks before importing a file the server says was already uploaded, and completes again with confirm_duplicate without sending the file twice', async () => {
    const DUPLICATE =
      'The same file was already uploaded for this country, trade direction and period on 2026-10-01 09:30 UTC by Asha Admin (upload 3).';
    const { calls, sent, user } = await uploadAsked(7, { confirm_duplicate: DUPLICATE }, 'confirm_duplicate');
    const dialog = await screen.findByRole('dialog', { name: 'Import this file again?' });
    expect(dialog).toHaveTextContent(DUPLICATE);
    // One event, one message: the question is asked in the dialog, and no toast repeats it.
    expect(screen.getAllByText(DUPLICATE)).toHaveLength(1);
    // Nothing is published for the month: there is nothing to replace.
    expect(within(dialog).queryByRole('button', { name: 'Replace them' })).not.toBeInTheDocument();
    // The safe answer is the default: focused and primary; importing twice is marked as the risky one.
    expect(within(dialog).getByRole('button', { name: 'Cancel the upload' })).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Cancel the upload' })).toHaveClass('button--primary');
    expect(within(dialog).getByRole('button', { name: 'Import again' })).toHaveClass('button--danger');
    expect(within(dialog).getByRole('button', { name: 'Import again' })).not.toHaveClass('button--primary');
    await user.click(within(dialog).getByRole('button', { name: 'Import again' }));
    expect(await screen.findByText('Published')).toBeInTheDocument();
    expect(calls).toEqual(['complete {}', 'complete {"confirm_duplicate":true}']);
    expect(sent.bytes).toHaveLength(1);
  });

  it('asks whether a file replaces or adds to a month already published, and completes with the answer', async () => {
    const { calls, user } = await uploadAsked(8, { confirm_published: PUBLISHED }, 'replace_published');
    const dialog = await screen.findByRole('dialog', { name: 'This month is already published' });
    expect(dialog).toHaveTextContent(PUBLISHED);
    // The cancel, which imports nothing, has the focus; Add and Replace are there to choose.
    expect(within(dialog).getByRole('button', { name: 'Cancel the upload' })).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Add to them' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Replace them' })).toHaveClass('button--danger');
    await user.click(within(dialog).getByRole('button', { name: 'Replace them' }));
    expect(await screen.findByText('Published')).toBeInTheDocument();
    expect(calls).toEqual(['complete {}', 'complete {"replace_published":true}']);
  });

  it('cancels the upload when the question is declined, instead of leaving it waiting, and keeps what the form holds', async () => {
    const { calls, user } = await uploadAsked(9, { confirm_published: PUBLISHED }, 'add_to_published');
    const dialog = await screen.findByRole('dialog', { name: 'This month is already published' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel the upload' }));
    expect(await screen.findByText(/^Upload 9 was cancelled: nothing of .+ was imported\.$/)).toHaveAttribute(
      'role',
      'status',
    );
    expect(calls).toEqual(['complete {}', 'cancel']);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(period()).toHaveDisplayValue('September');
    expect(screen.queryByText(/This field is required/)).not.toBeInTheDocument();
  });

  it('answers Enter with the default, the safe cancel: the file is not imported again', async () => {
    const { calls, user } = await uploadAsked(
      10,
      { confirm_duplicate: 'The same file was already uploaded (upload 3).' },
      'confirm_duplicate',
    );
    await screen.findByRole('dialog', { name: 'Import this file again?' });
    await user.keyboard('{Enter}');
    await screen.findByText(/^Upload 10 was cancelled/);
    expect(calls).toEqual(['complete {}', 'cancel']);
  });

  it('cancels the upload when the page is left with its question unanswered, so that none is left waiting for its file', async () => {
    const { calls, unmount } = await uploadAsked(
      11,
      { confirm_duplicate: 'The same file was already uploaded (upload 3).' },
      'confirm_duplicate',
    );
    await screen.findByRole('dialog', { name: 'Import this file again?' });
    unmount();
    await waitFor(() => expect(calls).toEqual(['complete {}', 'cancel']));
  });
});
