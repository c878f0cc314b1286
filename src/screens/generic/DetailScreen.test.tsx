import { screen } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { vouchers } from '../testing/fixtures.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import DetailScreen from './DetailScreen.tsx';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

describe('DetailScreen', () => {
  it("shows every field a person reads, in people's words: an enum's label, not its code, and no record version", async () => {
    signInWith({ VOUCHER: ['view', 'view_detail'] });
    server.use(
      mock.get(api('vouchers/9'), () =>
        HttpResponse.json({
          data: {
            id: 9,
            code: 'FLAT50',
            discount_type: 'flat',
            discount_value: 50,
            valid_to: '2026-12-31',
            used_count: 3,
            is_active: true,
            created_at: '2026-01-05T10:00:00Z',
            version: 4,
          },
        }),
      ),
    );
    renderScreen(DetailScreen, {
      resource: vouchers,
      route: routeOf(vouchers, 'view_detail', 'detail'),
      at: '/voucher-management/vouchers/9',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Voucher FLAT50' })).toBeInTheDocument();
    const term = (name: string) => screen.queryByText(name, { selector: 'dt' })?.nextElementSibling?.textContent;
    expect(term('Discount type')).toBe('Flat amount');
    expect(term('Active')).toBe('Active');
    expect(term('Version')).toBeUndefined();
    expect(screen.getAllByRole('term').map((dt) => dt.textContent)).not.toContain('Version');
  });
});
