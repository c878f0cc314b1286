import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToastHost } from '../../../shell/ToastHost.tsx';
import { api, renderScreen, server, signInWith } from '../../testing/renderScreen.tsx';
import DataUploadScreen from '../DataUploadScreen.tsx';
import { addRoute, country, fillIn, logOf, serveCountries, STORAGE_URL, uploads } from './uploadTesting.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('a file uploaded again', () => {
  it('asks before importing a file the server says was already uploaded, names the earlier upload, and resends with the confirmation', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    serveCountries();
    const DUPLICATE = 'The same file was already uploaded for this country, trade direction and period on 2026-10-01 09:30 UTC by Asha Admin (upload 3). Confirm to import it again.';
    const posts: Array<string | null> = [];
    server.use(
      mock.post(api('uploads'), () => HttpResponse.json({ data: { upload: { id: 7 }, upload_url: STORAGE_URL, fields: {} } }, { status: 201 })),
      mock.post(STORAGE_URL, async ({ request }) => {
        const confirmation = (await request.formData()).get('confirm_duplicate') as string | null;
        posts.push(confirmation);
        return confirmation === 'true'
          ? HttpResponse.json({ data: { id: 7, status: 'processing' }, message: 'The file was received and is being processed.' })
          : HttpResponse.json({ message: DUPLICATE, errors: { confirm_duplicate: DUPLICATE } }, { status: 409 });
      }),
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'completed', rows: [1, 1, 0] }))),
    );
    const user = userEvent.setup();
    render(<ToastHost />);
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    const dialog = await screen.findByRole('dialog', { name: 'Import this file again?' });
    expect(dialog).toHaveTextContent(DUPLICATE);
    // One event, one message: the question is asked in the dialog, and no "Error" toast repeats it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
    expect(screen.getAllByText(DUPLICATE)).toHaveLength(1);
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(posts).toEqual([null]);
    // Cancelled: nothing imported, the choices kept to change.
    expect(country()).toHaveDisplayValue('India');

    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Import this file again?' })).getByRole('button', { name: 'Import again' }));
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(posts).toEqual([null, null, 'true']);
    // The success is the server's own message, said once.
    expect(await screen.findAllByText('The file was received and is being processed.')).toHaveLength(1);
  });

  it('with a bucket, a confirmed duplicate completes again with confirm_duplicate, without sending the file twice', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    serveCountries();
    const BUCKET_URL = 'https://trade-uploads.s3.example.test/';
    const DUPLICATE = 'The same file was already uploaded for this country, trade direction and period on 2026-10-01 09:30 UTC by Asha Admin (upload 3). Confirm to import it again.';
    const calls: string[] = [];
    server.use(
      mock.post(api('uploads'), () =>
        HttpResponse.json({ data: { upload: { id: 7 }, upload_url: BUCKET_URL, fields: { key: 'uploads/7-ab.csv' }, complete_path: 'uploads/7/complete' } }, { status: 201 }),
      ),
      mock.post(BUCKET_URL, () => {
        calls.push('bucket');
        return new HttpResponse(null, { status: 204 });
      }),
      mock.post(api('uploads/7/complete'), async ({ request }) => {
        const body = (await request.json()) as { confirm_duplicate?: boolean };
        calls.push(`complete ${JSON.stringify(body)}`);
        return body.confirm_duplicate
          ? HttpResponse.json({ data: { id: 7, status: 'processing' } })
          : HttpResponse.json({ message: DUPLICATE, errors: { confirm_duplicate: DUPLICATE } }, { status: 409 });
      }),
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'completed', rows: [1, 1, 0] }))),
    );
    const user = userEvent.setup();
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Import this file again?' })).getByRole('button', { name: 'Import again' }));
    expect(await screen.findByText('Completed')).toBeInTheDocument();
    expect(calls).toEqual(['bucket', 'complete {}', 'complete {"confirm_duplicate":true}']);
  });

});
