import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReviewCheck, UploadReviewAnswer } from '../../../../contract/uploadReview.ts';
import { ToastHost } from '../../../shell/ToastHost.tsx';
import { api, renderScreen, server, signInWith } from '../../testing/renderScreen.tsx';
import DataUploadScreen from '../DataUploadScreen.tsx';
import { stubCanvas } from '../reporting/chartTesting.ts';
import { addRoute, detailRoute, logOf, uploads } from './uploadTesting.ts';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(() => void stubCanvas());
afterEach(() => {
  server.resetHandlers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
afterAll(() => server.close());

const check = (
  key: ReviewCheck['key'],
  label: string,
  flagged: boolean,
  message: string,
  applied = true,
): ReviewCheck => ({
  key,
  label,
  measured: flagged ? 0.9 : 0.01,
  threshold: 0.4,
  current: null,
  previous: null,
  applied,
  flagged,
  message,
});

/** A month with 90% fewer rows than September, held for review. */
function heldReview(
  status = 'needs_review',
  decision: UploadReviewAnswer['decision'] = null,
): { data: UploadReviewAnswer } {
  return {
    data: {
      upload_id: 7,
      status,
      decision,
      review: {
        computed_at: '2026-11-27T10:00:00Z',
        computed_in_ms: 120,
        compared_with: { upload_id: 6, period: '2026-09', file_name: 'india-exports-2026-09.csv' },
        outcome: 'needs_review',
        thresholds: {} as never,
        profile: {} as never,
        previous: null,
        checks: [
          check(
            'row_count_change',
            'Accepted rows against the month compared with',
            true,
            'Accepted rows fell by 90% (200 → 20); more than the 40% allowed.',
          ),
          check('rejected_share', 'Rows rejected', false, 'No rows were rejected; at most 5% is allowed.'),
        ],
        flagged: ['row_count_change'],
        hs_chapters: { new: [], missing: [] },
        unit_values: [],
      },
      months: [
        { period: '2026-08', rows: 190, value: 5_000_000, current: false },
        { period: '2026-09', rows: 200, value: 5_200_000, current: false },
        { period: '2026-10', rows: 20, value: 480_000, current: true },
      ],
      samples: [{ key: 'row_count_change', rows: [{ hs_code: '0904', importer: 'Spice Co', value: 24000 }] }],
    },
  };
}

function renderDetail() {
  render(<ToastHost />);
  return renderScreen(DataUploadScreen, {
    resource: uploads,
    route: detailRoute,
    at: '/data-upload-management/uploads/7',
  });
}

describe('an upload waiting for review', () => {
  it('shows a reviewer each check with what was found, the months before, the rows behind a flagged check, and publishes it with a reason', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail', 'verify'] });
    let status = 'needs_review';
    let sent: unknown = null;
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status, rows: [20, 20, 0] }))),
      mock.get(api('uploads/7/review'), () =>
        HttpResponse.json(
          heldReview(
            status,
            status === 'published' ? { by: 2, at: '2026-11-27T11:00:00Z', reason: 'A short month.' } : null,
          ),
        ),
      ),
      mock.post(api('uploads/7/publish'), async ({ request }) => {
        sent = await request.json();
        status = 'published';
        return HttpResponse.json({ data: { id: 7, status }, message: 'The upload is published.' });
      }),
    );
    const user = userEvent.setup();
    renderDetail();
    const panel = await screen.findByRole('region', { name: 'Checks before publishing' });
    expect(panel).toHaveTextContent(
      'Compared with Sep 2026, the last published month of this country and direction (india-exports-2026-09.csv). 1 check is beyond the limit.',
    );
    const rows = within(within(panel).getAllByRole('table')[0]!).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      'Accepted rows against the month compared withBeyond the limitAccepted rows fell by 90% (200 → 20); more than the 40% allowed.',
      'Rows rejectedWithin the limitNo rows were rejected; at most 5% is allowed.',
    ]);
    expect(within(panel).getByText('This upload, marked with a dot: Oct 2026, 20 rows.')).toBeInTheDocument();
    await user.click(within(panel).getByText('Rows behind “Accepted rows against the month compared with” (1)'));
    expect(within(panel).getByRole('cell', { name: 'Spice Co' })).toBeVisible();

    await user.click(within(panel).getByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish this upload?' });
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(within(dialog).getByRole('textbox', { name: /^Reason/ })).toHaveAccessibleDescription(
      'Say why: the upload’s history keeps it.',
    );
    expect(sent).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'A short month.');
    await user.click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent).toEqual({ reason: 'A short month.' });
    expect(await screen.findByText('The upload is published.')).toBeInTheDocument();
    expect(await screen.findByText(/^Published on .*: “A short month\.”$/)).toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Checks before publishing' })).queryByRole('button', {
        name: 'Reject',
      }),
    ).not.toBeInTheDocument();
  });

  it('rejects with a reason after a confirmation that says the records go', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail', 'verify'] });
    let sent: unknown = null;
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'needs_review', rows: [20, 20, 0] }))),
      mock.get(api('uploads/7/review'), () => HttpResponse.json(heldReview())),
      mock.post(api('uploads/7/reject'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({
          data: { id: 7, status: 'rejected' },
          message: 'The upload is rejected and its records removed.',
        });
      }),
    );
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Reject' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reject this upload?' });
    expect(dialog).toHaveTextContent('Its records are removed');
    await user.type(within(dialog).getByRole('textbox', { name: /^Reason/ }), 'Exported twice over.');
    await user.click(within(dialog).getByRole('button', { name: 'Reject' }));
    await waitFor(() => expect(sent).toEqual({ reason: 'Exported twice over.' }));
    expect(await screen.findByText('The upload is rejected and its records removed.')).toBeInTheDocument();
  });

  it('changes the limits of the checks: percentages as typed, stored as fractions, each with its default', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail', 'verify'] });
    const defaults = {
      hold: true,
      row_count_change: 0.4,
      value_change: 0.5,
      quantity_change: 0.5,
      rejected_share: 0.05,
      outside_period_share: 0.01,
      duplicate_share: 0.02,
      hs_chapter_share: 0.05,
      empty_party_change: 0.2,
      unit_value_factor: 3,
      unit_value_min_rows: 20,
    };
    let saved: unknown = null;
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'needs_review', rows: [20, 20, 0] }))),
      mock.get(api('uploads/7/review'), () => HttpResponse.json(heldReview())),
      mock.get(api('uploads/review-settings'), () =>
        HttpResponse.json({ data: { thresholds: { ...defaults, rejected_share: 0.1 }, defaults } }),
      ),
      mock.put(api('uploads/review-settings'), async ({ request }) => {
        saved = await request.json();
        return HttpResponse.json({ data: {}, message: 'The limits are saved.' });
      }),
    );
    const user = userEvent.setup();
    renderDetail();
    await user.click(await screen.findByRole('button', { name: 'Change the limits of the checks' }));
    const dialog = await screen.findByRole('dialog', { name: 'Limits of the checks before publishing' });
    const rejected = await within(dialog).findByRole('textbox', { name: 'Rows rejected, at most' });
    expect(rejected).toHaveValue('10');
    expect(rejected).toHaveAccessibleDescription('Default 5%');
    await user.clear(rejected);
    await user.click(within(dialog).getByRole('button', { name: 'Save the limits' }));
    expect(rejected).toHaveAccessibleDescription('A number of 0 or more. Default 5%');
    expect(saved).toBeNull();
    await user.type(rejected, '7.5');
    await user.clear(within(dialog).getByRole('textbox', { name: /^Accepted rows may change/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /^Accepted rows may change/ }), '60');
    await user.click(within(dialog).getByRole('button', { name: 'Save the limits' }));
    await waitFor(() => expect(saved).toEqual({ ...defaults, rejected_share: 0.075, row_count_change: 0.6 }));
    expect(await screen.findByText('The limits are saved.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers the limits on the upload screen too, to a reviewer only', async () => {
    const defaults = {
      hold: true,
      row_count_change: 0.4,
      value_change: 0.5,
      quantity_change: 0.5,
      rejected_share: 0.05,
      outside_period_share: 0.01,
      duplicate_share: 0.02,
      hs_chapter_share: 0.05,
      empty_party_change: 0.2,
      unit_value_factor: 3,
      unit_value_min_rows: 20,
    };
    server.use(
      mock.get(api('countries/options'), () => HttpResponse.json({ data: [] })),
      mock.get(api('uploads/columns'), () => HttpResponse.json({ data: [] })),
      mock.get(api('uploads/review-settings'), () => HttpResponse.json({ data: { thresholds: defaults, defaults } })),
    );
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add', 'verify'] });
    const user = userEvent.setup();
    const first = renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    await user.click(await screen.findByRole('button', { name: 'Change the limits of the checks' }));
    const dialog = await screen.findByRole('dialog', { name: 'Limits of the checks before publishing' });
    expect(
      await within(dialog).findByRole('checkbox', { name: /^Hold imports beyond a limit for review/ }),
    ).toBeChecked();
    first.unmount();

    signInWith({ DATA_UPLOAD_LOGS: ['view', 'add'] });
    renderScreen(DataUploadScreen, { resource: uploads, route: addRoute });
    expect(await screen.findByRole('heading', { level: 1, name: 'Upload trade data' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Change the limits of the checks' })).not.toBeInTheDocument();
  });

  it('is not offered to a role without verify: no comparison is asked for', async () => {
    signInWith({ DATA_UPLOAD_LOGS: ['view', 'view_detail'] });
    let asked = false;
    server.use(
      mock.get(api('uploads/7/log'), () => HttpResponse.json(logOf({ status: 'needs_review', rows: [20, 20, 0] }))),
      mock.get(api('uploads/7/review'), () => {
        asked = true;
        return HttpResponse.json(heldReview());
      }),
    );
    renderDetail();
    expect(await screen.findByText('Waiting for review')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Checks before publishing' })).not.toBeInTheDocument();
    expect(asked).toBe(false);
  });
});
