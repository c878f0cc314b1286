import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { http } from '../http/http.ts';
import { permissionStore } from '../permissions/permissionStore.ts';
import type { Permissions } from '../permissions/types.ts';
import { startSession } from '../session/sessionStore.ts';
import { renderWithRouter } from '../test/renderWithRouter.tsx';
import { makeToken } from '../test/tokens.ts';
import { GoAnywhereButton } from './GoAnywhereButton.tsx';
import { listenForGoAnywhere } from './goAnywhereShortcut.ts';
import type { FoundResource } from './useRecordSearch.ts';

vi.mock('../http/http.ts', () => ({ http: { get: vi.fn() } }));
const get = vi.mocked(http.get);

// The palette's chunk arrives when the first test that opens it lets it: the code is slow to come once, then cached.
const chunk = vi.hoisted(() => {
  let arrive = () => {};
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  return { arrived, arrive };
});
vi.mock('./GoAnywhereDialog.tsx', async (importOriginal) => {
  await chunk.arrived;
  return importOriginal();
});

listenForGoAnywhere();

/** These actions on these modules of the generated route table. */
function granting(grants: Record<string, string[]>): Permissions {
  return Object.fromEntries(
    Object.entries(grants).map(([module, actions], order) => [
      module,
      { order, actions: Object.fromEntries(actions.map((action) => [action, { is_routable: false, route_url: '' }])) },
    ]),
  );
}

const ADMIN_OF_VOUCHERS_AND_SUBSCRIBERS = granting({
  VOUCHER_MANAGEMENT: ['view'],
  VOUCHER: ['view', 'add', 'edit'],
  SUBSCRIBER_MANAGEMENT: ['view'],
  SUBSCRIBERS: ['view', 'SUBSCRIBER_DETAIL'],
  COMPANY_MANAGEMENT: ['view'],
  COMPANY: ['view'],
  USER_PROFILE: ['view'],
});

let found: FoundResource[] = [];

beforeEach(() => {
  get.mockReset();
  permissionStore.clear();
  startSession(makeToken(), 'refresh-1');
  found = [];
  get.mockImplementation(((path: string) =>
    Promise.resolve(
      path === 'user/permission' ? { data: ADMIN_OF_VOUCHERS_AND_SUBSCRIBERS } : { data: found },
    )) as typeof http.get);
});

const searchCalls = () => get.mock.calls.filter(([path]) => path === 'search');
const options = () => within(screen.getByRole('listbox', { name: 'Screens and records' })).queryAllByRole('option');
const optionTexts = () => options().map((option) => option.querySelector('.go-anywhere__label')?.textContent);

async function openWithShortcut(key: '{Control>}k{/Control}' | '{Meta>}k{/Meta}' = '{Control>}k{/Control}') {
  const view = renderWithRouter(<GoAnywhereButton />, ['/voucher-management/vouchers']);
  await userEvent.keyboard(key);
  const dialog = await screen.findByRole('dialog', { name: 'Go anywhere' });
  return { ...view, dialog, box: within(dialog).getByRole('combobox', { name: 'Screen or record' }) };
}

const subscriber = (id: number, label: string, details: string[]) => ({ id, label, details });

describe('Go anywhere, typed before its code is there', () => {
  it('keeps every key typed from Ctrl+K on while the palette loads, Backspace too, and opens with them as its query', async () => {
    found = [
      {
        resource: 'SUBSCRIBERS',
        label: 'Subscribers',
        records: [subscriber(7, 'Asha Verma', ['asha@example.com', '9100000998'])],
      },
    ];
    const belowThePalette = vi.fn();
    document.addEventListener('keydown', belowThePalette);
    renderWithRouter(<GoAnywhereButton />, ['/voucher-management/vouchers']);
    await userEvent.keyboard('{Control>}k{/Control}91000009988{Backspace}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    chunk.arrive();
    const box = await screen.findByRole('combobox', { name: 'Screen or record' });
    await waitFor(() => expect(box).toHaveFocus());
    expect(box).toHaveValue('9100000998');
    expect((box as HTMLInputElement).selectionStart).toBe('9100000998'.length);
    // The keys were the palette's alone: nothing below it (a list's shortcuts) saw them.
    expect(
      belowThePalette.mock.calls.map(([event]) => (event as KeyboardEvent).key).filter((key) => key !== 'Control'),
    ).toEqual([]);
    document.removeEventListener('keydown', belowThePalette);
    await waitFor(() => expect(searchCalls()[0]![1]).toMatchObject({ params: { q: '9100000998' } }));
    expect(await screen.findByRole('option', { name: /Asha Verma/ })).toHaveTextContent(
      'asha@example.com · 9100000998',
    );
  });

  it('an Enter typed ahead opens the first choice once the records are there', async () => {
    found = [{ resource: 'SUBSCRIBERS', label: 'Subscribers', records: [subscriber(7, 'Asha Verma', [])] }];
    const { history } = renderWithRouter(<GoAnywhereButton />, ['/voucher-management/vouchers']);
    const keyboard = userEvent.setup({ delay: null }).keyboard;
    await keyboard('{Control>}k{/Control}ashx{Backspace}a{Enter}');
    await waitFor(() => expect(history.location.pathname).toBe('/subscriber-management/subscribers/7/details'));
    // The choice opened is the final text's: a busy machine may also have searched what was typed on the way.
    expect(searchCalls().at(-1)![1]).toMatchObject({ params: { q: 'asha' } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('Escape typed before the palette is there closes it, and keys go back where they went', async () => {
    renderWithRouter(
      <>
        <input aria-label="Elsewhere" />
        <GoAnywhereButton />
      </>,
    );
    await userEvent.keyboard('{Control>}k{/Control}{Escape}');
    const elsewhere = screen.getByRole('textbox', { name: 'Elsewhere' });
    await userEvent.type(elsewhere, 'abc');
    expect(elsewhere).toHaveValue('abc');
    await import('./GoAnywhereDialog.tsx');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.keyboard('{Control>}k{/Control}');
    expect(await screen.findByRole('dialog', { name: 'Go anywhere' })).toBeInTheDocument();
  });
});

describe('Go anywhere', () => {
  it('opens with Ctrl+K or ⌘K, its box focused; Escape closes it and gives focus back', async () => {
    const { box } = await openWithShortcut();
    await waitFor(() => expect(box).toHaveFocus());
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const button = screen.getByRole('button', { name: /go anywhere/i });
    expect(button).toHaveAttribute('aria-keyshortcuts', 'Control+K Meta+K');
    await userEvent.click(button);
    await userEvent.keyboard('{Escape}');
    expect(button).toHaveFocus();
    await userEvent.keyboard('{Meta>}k{/Meta}');
    expect(await screen.findByRole('dialog', { name: 'Go anywhere' })).toBeInTheDocument();
  });

  it('lists only the screens the permissions open (the check the sidebar makes), and filters them by label and area', async () => {
    const { box } = await openWithShortcut();
    await waitFor(() => expect(optionTexts()).toContain('Vouchers'));
    // In the generated table's order: the areas' order of the sidebar.
    expect(optionTexts()).toEqual(['Subscribers', 'Vouchers', 'Vouchers: add', 'Companies', 'Profile']);
    expect(optionTexts()).not.toContain('Subscribers: add');
    await userEvent.type(box, 'vouch');
    expect(optionTexts()).toEqual(['Vouchers', 'Vouchers: add']);
    await userEvent.clear(box);
    await userEvent.type(box, 'subscriber management');
    expect(optionTexts()).toEqual(['Subscribers']);
    await userEvent.clear(box);
    await userEvent.type(box, 'nowhere at all');
    expect(options()).toHaveLength(0);
    expect(screen.getByRole('status')).toHaveTextContent('Searching records…');
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('No screen or record matches.'));
  });

  it('moves through the choices with the arrows, round at both ends, and Enter opens the one marked', async () => {
    const { box, history } = await openWithShortcut();
    await waitFor(() => expect(options().length).toBe(5));
    const marked = () => options().findIndex((option) => option.getAttribute('aria-selected') === 'true');
    expect(marked()).toBe(0);
    expect(box).toHaveAttribute('aria-activedescendant', options()[0]!.id);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(marked()).toBe(2);
    expect(box).toHaveAttribute('aria-activedescendant', options()[2]!.id);
    await userEvent.keyboard('{ArrowUp}{ArrowUp}{ArrowUp}');
    expect(marked()).toBe(4);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(history.location.pathname).toBe('/voucher-management/vouchers/add');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('finds records from three characters on, once typing pauses, and opens a record on its detail screen, else its edit screen', async () => {
    found = [
      { resource: 'SUBSCRIBERS', label: 'Subscribers', records: [subscriber(7, 'Asha Verma', [])] },
      { resource: 'VOUCHER', label: 'Vouchers', records: [subscriber(3, 'ASHA10', [])] },
      // Companies: viewed in the list, but this user may open neither a company's detail nor its edit screen.
      { resource: 'COMPANY', label: 'Companies', records: [subscriber(9, 'Asha Exports', [])] },
    ];
    const { box, history } = await openWithShortcut();
    await userEvent.type(box, 'as');
    expect(screen.getByRole('status')).toHaveTextContent('Type 3 characters or more to find records too.');
    await userEvent.type(box, 'ha');
    await waitFor(() => expect(optionTexts()).toEqual(['Asha Verma', 'ASHA10']));
    expect(searchCalls()).toHaveLength(1);
    expect(searchCalls()[0]![1]).toMatchObject({ params: { q: 'asha', limit: 5 } });
    expect(within(screen.getByRole('group', { name: 'Subscribers' })).getByRole('option')).toHaveTextContent(
      'Asha VermaSubscribers',
    );
    expect(screen.queryByRole('group', { name: 'Companies' })).not.toBeInTheDocument();
    await userEvent.keyboard('{ArrowDown}{Enter}');
    expect(history.location.pathname).toBe('/voucher-management/vouchers/3/edit');
    await userEvent.keyboard('{Control>}k{/Control}');
    await userEvent.type(await screen.findByRole('combobox'), 'asha');
    await userEvent.click(await screen.findByRole('option', { name: /asha verma/i }));
    expect(history.location.pathname).toBe('/subscriber-management/subscribers/7/details');
  });

  it('asks nothing of the server for a search under three characters, nor before the palette is opened', async () => {
    renderWithRouter(<GoAnywhereButton />);
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /go anywhere/i }));
    await userEvent.type(await screen.findByRole('combobox'), 'vo');
    await act(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(searchCalls()).toHaveLength(0);
    expect(optionTexts()).toContain('Vouchers');
  });

  it('gives each record a second line that tells alike records apart, and none where the resource names nothing', async () => {
    const alike = [1, 2, 3, 4, 5].map((n) =>
      subscriber(n, 'Kavya Raman', [`kavya.raman${n}@example.org`, `98765432${n}0`]),
    );
    found = [
      { resource: 'SUBSCRIBERS', label: 'Subscribers', records: alike },
      { resource: 'VOUCHER', label: 'Vouchers', records: [subscriber(3, 'KAVYA10', [])] },
    ];
    const { box } = await openWithShortcut();
    await userEvent.type(box, 'kavya');
    const group = await screen.findByRole('group', { name: 'Subscribers' });
    await waitFor(() => expect(within(group).getAllByRole('option')).toHaveLength(5));
    const lines = within(group)
      .getAllByRole('option')
      .map((option) => option.querySelector('.go-anywhere__details')?.textContent);
    expect(lines).toEqual(alike.map((record) => record.details.join(' · ')));
    expect(within(group).getAllByRole('option')[1]).toHaveAccessibleName(
      /Kavya Raman\s*kavya\.raman2@example\.org · 9876543220\s*Subscribers/,
    );
    expect(
      within(screen.getByRole('group', { name: 'Vouchers' }))
        .getByRole('option')
        .querySelector('.go-anywhere__details'),
    ).toBeNull();
  });
});
