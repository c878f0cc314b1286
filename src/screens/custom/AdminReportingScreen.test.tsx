import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as reportingAreaChunk from '../../generated/areas/admin-reporting-management.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import AdminReportingScreen from './AdminReportingScreen.tsx';
import { stubCanvas } from './reporting/chartTesting.ts';
import { joinArea } from '../../routing/areaModule.ts';

const reportingArea = joinArea(reportingAreaChunk);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const reports = reportingArea.resources[0]!;
const route = routeOf(reports, 'view', 'admin-reporting');

let drawn: string[] = [];
beforeEach(() => {
  drawn = stubCanvas();
  // The default range is the last twelve months up to today: pin today (only the clock, not the timers).
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date('2026-11-20T10:00:00Z'));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The summary as GET reports/summary answers it: month rows, by plan for subscribers. */
const SUMMARY = {
  subscribers_by_plan: [
    { month: '2026-09', plan: 'Starter', subscribers: 4 },
    { month: '2026-09', plan: 'Business', subscribers: 1 },
    { month: '2026-10', plan: 'Starter', subscribers: 6 },
  ],
  points_consumed: [
    { month: '2026-09', points: 1500 },
    { month: '2026-10', points: 125000 },
  ],
  uploads_per_month: [{ month: '2026-10', uploads: 3 }],
  revenue: [
    { month: '2026-09', revenue: 54998 },
    { month: '2026-10', revenue: 149999 },
  ],
};

function serveSummary(ranges: { from: string | null; to: string | null }[]) {
  server.use(
    mock.get(api('reports/summary'), ({ request }) => {
      const query = new URL(request.url).searchParams;
      ranges.push({ from: query.get('from'), to: query.get('to') });
      const later = (query.get('from') ?? '') >= '2026-10-01';
      const pick = (rows: { month: string }[]) => (later ? rows.filter((row) => row.month >= '2026-10') : rows);
      return HttpResponse.json({
        data: {
          subscribers_by_plan: pick(SUMMARY.subscribers_by_plan),
          points_consumed: pick(SUMMARY.points_consumed),
          uploads_per_month: pick(SUMMARY.uploads_per_month),
          revenue: pick(SUMMARY.revenue),
        },
      });
    }),
  );
}

/** The numbers behind a chart, as a user reads them after opening "Show the numbers" under it. */
function numbersOf(chart: string): (string | null)[][] {
  const figure = screen.getByRole('figure', { name: chart });
  const details = within(figure).getByText('Show the numbers').closest('details')!;
  if (!details.open) fireEvent.click(within(figure).getByText('Show the numbers'));
  const table = within(figure).getByRole('table', { name: chart });
  return within(table)
    .getAllByRole('row')
    .map((row) => Array.from(row.children, (cell) => cell.textContent));
}

describe('AdminReportingScreen', () => {
  it('asks for the last twelve months and shows each chart with the table of its numbers', async () => {
    signInWith({ ADMIN_REPORTING: ['view'] });
    const ranges: { from: string | null; to: string | null }[] = [];
    serveSummary(ranges);
    renderScreen(AdminReportingScreen, { resource: reports, route });
    expect(screen.getByRole('heading', { level: 1, name: 'Admin reporting' })).toBeInTheDocument();
    const period = screen.getByRole('group', { name: 'Period' });
    expect(within(period).getByLabelText('From')).toHaveValue('2025-12-01');
    expect(within(period).getByLabelText('To')).toHaveValue('2026-11-20');

    await screen.findByRole('figure', { name: 'Subscribers by plan' });
    expect(ranges).toEqual([{ from: '2025-12-01', to: '2026-11-20' }]);
    // Every month of the period is a row, months read as people write them, a month without activity a 0.
    const byPlan = numbersOf('Subscribers by plan');
    expect(byPlan[0]).toEqual(['Month', 'Starter', 'Business']);
    expect(byPlan.slice(1).map((row) => row[0])).toEqual([
      'Dec 2025',
      'Jan 2026',
      'Feb 2026',
      'Mar 2026',
      'Apr 2026',
      'May 2026',
      'Jun 2026',
      'Jul 2026',
      'Aug 2026',
      'Sep 2026',
      'Oct 2026',
      'Nov 2026',
    ]);
    expect(byPlan.slice(-3)).toEqual([
      ['Sep 2026', '4', '1'],
      ['Oct 2026', '6', '0'],
      ['Nov 2026', '0', '0'],
    ]);
    // Thousands separated, money with its currency.
    expect(numbersOf('Points consumed').slice(-3)).toEqual([
      ['Sep 2026', '1,500'],
      ['Oct 2026', '1,25,000'],
      ['Nov 2026', '0'],
    ]);
    expect(numbersOf('Uploads per month').slice(-2)).toEqual([
      ['Oct 2026', '3'],
      ['Nov 2026', '0'],
    ]);
    expect(numbersOf('Revenue from subscriptions and top-ups').slice(-3)).toEqual([
      ['Sep 2026', '₹54,998'],
      ['Oct 2026', '₹1,49,999'],
      ['Nov 2026', '₹0'],
    ]);
    // Every chart is a figure named by its caption, and uPlot drew each one on a 2D canvas.
    expect(screen.getAllByRole('figure').map((figure) => figure.querySelector('figcaption')?.textContent)).toEqual([
      'Subscribers by plan',
      'Points consumed',
      'Uploads per month',
      'Revenue from subscriptions and top-ups',
    ]);
    await waitFor(() => expect(drawn.filter((kind) => kind === '2d').length).toBeGreaterThanOrEqual(4));
  });

  it('asks again for the chosen date range and shows its numbers', async () => {
    signInWith({ ADMIN_REPORTING: ['view'] });
    const ranges: { from: string | null; to: string | null }[] = [];
    serveSummary(ranges);
    const { history } = renderScreen(AdminReportingScreen, { resource: reports, route });
    await screen.findByRole('figure', { name: 'Points consumed' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-01' } });
    await waitFor(() => expect(ranges.at(-1)).toEqual({ from: '2026-10-01', to: '2026-11-20' }));
    await waitFor(() =>
      expect(numbersOf('Points consumed')).toEqual([
        ['Month', 'Points'],
        ['Oct 2026', '1,25,000'],
        ['Nov 2026', '0'],
      ]),
    );
    // The period is in the address, so the report can be bookmarked and shared.
    expect(new URLSearchParams(history.location.search).get('from')).toBe('2026-10-01');
    expect(new URLSearchParams(history.location.search).get('to')).toBe('2026-11-20');
    // The end cannot be set before the start.
    expect(screen.getByLabelText('To')).toHaveAttribute('min', '2026-10-01');
    // Clearing a date keeps the last complete range instead of asking for half a range.
    const asked = ranges.length;
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '' } });
    expect(screen.getByLabelText('To')).toHaveValue('2026-11-20');
    expect(ranges).toHaveLength(asked);
  });

  it('downloads the CSV of the chosen range with the download permission, and offers no download without it', async () => {
    signInWith({ ADMIN_REPORTING: ['view', 'download'] });
    serveSummary([]);
    const exports: URLSearchParams[] = [];
    server.use(
      mock.get(api('reports/summary/export'), ({ request }) => {
        exports.push(new URL(request.url).searchParams);
        return new HttpResponse('Report,Month,Plan,Value\r\nPoints consumed,2026-10,,125000\r\n', {
          headers: { 'Content-Type': 'text/csv' },
        });
      }),
    );
    const saved: { name: string; href: string }[] = [];
    URL.createObjectURL = () => 'blob:report';
    URL.revokeObjectURL = () => undefined;
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    const { unmount } = renderScreen(AdminReportingScreen, { resource: reports, route });
    await screen.findByRole('figure', { name: 'Points consumed' });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-10-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() =>
      expect(saved).toEqual([{ name: 'admin-report-2026-10-01-to-2026-11-20.csv', href: 'blob:report' }]),
    );
    expect(exports.map((query) => Object.fromEntries(query))).toEqual([{ from: '2026-10-01', to: '2026-11-20' }]);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
    unmount();

    signInWith({ ADMIN_REPORTING: ['view'] });
    renderScreen(AdminReportingScreen, { resource: reports, route });
    await screen.findByRole('figure', { name: 'Points consumed' });
    expect(screen.queryByRole('button', { name: 'Download CSV' })).not.toBeInTheDocument();
  });

  it('offers a retry when the reports cannot be loaded', async () => {
    signInWith({ ADMIN_REPORTING: ['view'] });
    let calls = 0;
    server.use(
      mock.get(api('reports/summary'), () => {
        calls += 1;
        return calls === 1
          ? HttpResponse.json({ message: 'Database busy.' }, { status: 503 })
          : HttpResponse.json({ data: SUMMARY });
      }),
    );
    renderScreen(AdminReportingScreen, { resource: reports, route });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the reports.');
    fireEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('figure', { name: 'Uploads per month' })).toBeInTheDocument();
    expect(numbersOf('Uploads per month')).toContainEqual(['Oct 2026', '3']);
  });

  it('opens at the period a shared address names, and says so when nothing happened in it instead of drawing empty charts', async () => {
    signInWith({ ADMIN_REPORTING: ['view'] });
    const ranges: { from: string | null; to: string | null }[] = [];
    serveSummary(ranges);
    renderScreen(AdminReportingScreen, { resource: reports, route, at: `${route.path}?from=2026-10-01&to=2026-10-31` });
    await screen.findByRole('figure', { name: 'Points consumed' });
    expect(ranges[0]).toEqual({ from: '2026-10-01', to: '2026-10-31' });
    expect(screen.getByLabelText('From')).toHaveValue('2026-10-01');
    // A chart with nothing in the period says so, with no axes and no empty table.
    server.use(
      mock.get(api('reports/summary'), () =>
        HttpResponse.json({
          data: { subscribers_by_plan: [], points_consumed: [], uploads_per_month: [], revenue: [] },
        }),
      ),
    );
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2020-01-01' } });
    expect(await screen.findByText(/^Nothing happened between 01 Jan 2020 and 31 Oct 2026/)).toBeInTheDocument();
    expect(screen.queryByRole('figure')).not.toBeInTheDocument();
  });
});
