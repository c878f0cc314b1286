import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as executiveAreaChunk from '../../generated/areas/executive-profile-management.ts';
import { api, renderScreen, routeOf, server, signInWith } from '../testing/renderScreen.tsx';
import ExecutiveProfilesScreen from './ExecutiveProfilesScreen.tsx';
import { joinArea } from '../../routing/areaModule.ts';

const executiveArea = joinArea(executiveAreaChunk);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => server.resetHandlers());
afterAll(() => server.close());

const executives = executiveArea.resources.find((resource) => resource.module === 'EXECUTIVE_PROFILE')!;
const route = routeOf(executives, 'view_detail', 'executive-profiles');
const at = '/executive-profile-management/executives/1';

const EXECUTIVE = {
  id: 1,
  user_id: 2,
  user_id_label: 'sales@example.com',
  employee_code: 'EXE-0001',
  region: 'west',
  target_subscribers: 250,
  mobile: '9876500001',
  is_active: true,
  created_at: '2026-01-02T10:00:00Z',
};
const ASSIGNED = [
  { id: 5, name: 'Meera Traders', email: 'meera@example.com', company_name: 'Spice Exim 5', status: 'active' },
  { id: 10, name: 'Kabir Khan', email: 'kabir@example.com', company_name: null, status: 'trial' },
];

function serveExecutive(assigned: Record<string, unknown>[] = ASSIGNED) {
  server.use(
    mock.get(api('executives/1'), () => HttpResponse.json({ data: EXECUTIVE })),
    mock.get(api('executives/1/subscribers'), () => HttpResponse.json({ data: assigned })),
  );
}

describe('ExecutiveProfilesScreen', () => {
  it('shows the executive and the subscribers assigned to them, with Edit only when editing is allowed', async () => {
    signInWith({ EXECUTIVE_PROFILE: ['view', 'view_detail'] });
    serveExecutive();
    renderScreen(ExecutiveProfilesScreen, { resource: executives, route, at });
    expect(await screen.findByRole('heading', { level: 1, name: 'Executive EXE-0001' })).toBeInTheDocument();
    const term = (name: string) => screen.getByText(name, { selector: 'dt' }).nextElementSibling?.textContent;
    expect(term('User')).toBe('sales@example.com');
    expect(term('Region')).toBe('West');
    expect(term('Target subscribers')).toBe('250');
    expect(term('Mobile')).toBe('9876500001');

    expect(await screen.findByRole('heading', { level: 2, name: 'Assigned subscribers (2)' })).toBeInTheDocument();
    const table = screen.getByRole('table');
    // The statuses read as the subscribers' manifest labels them, once that area's description is in.
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('row')
          .map((row) => Array.from(row.children, (cell) => cell.textContent)),
      ).toEqual([
        ['Name', 'Email', 'Company', 'Status'],
        ['Meera Traders', 'meera@example.com', 'Spice Exim 5', 'Active'],
        ['Kabir Khan', 'kabir@example.com', '—', 'Trial'],
      ]),
    );
    expect(screen.getByRole('link', { name: 'Back to executives' })).toHaveAttribute(
      'href',
      '/executive-profile-management/executives',
    );
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    // Only a viewer who is an executive is told their own lists are limited.
    expect(screen.queryByText(/You have executive access/)).not.toBeInTheDocument();
  });

  it('links to the edit form with the edit permission, and tells an executive viewer their lists are limited', async () => {
    signInWith({ EXECUTIVE_PROFILE: ['view', 'view_detail', 'edit'], SUBSCRIBERS: ['view', 'executive_access'] });
    serveExecutive();
    const user = userEvent.setup();
    const { history } = renderScreen(ExecutiveProfilesScreen, { resource: executives, route, at });
    expect(
      await screen.findByText(
        /You have executive access: subscriber screens show you only the subscribers assigned to you\./,
      ),
    ).toBeInTheDocument();
    await user.click(await screen.findByRole('link', { name: 'Edit' }));
    expect(history.location.pathname).toBe('/executive-profile-management/executives/1/edit');
  });

  it('says when no subscriber is assigned', async () => {
    signInWith({ EXECUTIVE_PROFILE: ['view', 'view_detail'] });
    serveExecutive([]);
    renderScreen(ExecutiveProfilesScreen, { resource: executives, route, at });
    expect(await screen.findByText('No subscribers are assigned to this executive.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: 'Assigned subscribers (0)' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('offers a retry when the executive cannot be loaded', async () => {
    signInWith({ EXECUTIVE_PROFILE: ['view', 'view_detail'] });
    server.use(
      mock.get(api('executives/1'), () => HttpResponse.json({ message: 'Executive not found.' }, { status: 404 })),
      mock.get(api('executives/1/subscribers'), () => HttpResponse.json({ data: [] })),
    );
    renderScreen(ExecutiveProfilesScreen, { resource: executives, route, at });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Could not load the executive.');
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Executive' })).toBeInTheDocument();
  });
});
