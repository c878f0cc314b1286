import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ResourceDescription } from '../../../generated/types.ts';
import type { Row } from '../../shared/formatValue.ts';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import { subscribers, vouchers } from '../../testing/fixtures.ts';
import { ResourceTable } from './ResourceTable.tsx';

const NONE: ResourceAccess = {
  add: false,
  edit: false,
  delete: false,
  ACTIVE_INACTIVE: false,
  download: false,
  view_detail: false,
  verify: false,
  SUBSCRIBER_DETAIL: false,
  import: false,
};
const grant = (...actions: (keyof ResourceAccess)[]): ResourceAccess => ({
  ...NONE,
  ...Object.fromEntries(actions.map((action) => [action, true])),
});

const voucherRows: Row[] = Array.from({ length: 5 }, (_, index) => ({
  id: index + 1,
  code: `CODE0${index + 1}`,
  discount_type: 'percent',
  discount_value: 10,
  valid_to: '2026-12-31',
  used_count: index,
  is_active: true,
}));
const subscriberRows: Row[] = [
  { id: 7, name: 'Meera Shah', email: 'meera@example.com', country_id: 1, country_id_label: 'India' },
];

interface Options {
  resource?: ResourceDescription;
  rows?: Row[];
  access: ResourceAccess;
  selectable?: boolean;
  onDelete?: (row: Row) => void;
}

/** The table in a router at /list; the router tells where a click went. */
function renderTable({
  resource = vouchers,
  rows = voucherRows,
  access,
  selectable = false,
  onDelete = () => undefined,
}: Options) {
  function Harness() {
    const [selection, setSelection] = useState({});
    return (
      <ResourceTable
        resource={resource}
        rows={rows}
        columns={resource.list!.columns}
        access={access}
        sort={{ field: resource.list!.columns[0]!, direction: 'asc' }}
        onSort={() => undefined}
        selectable={selectable}
        selection={selection}
        onSelection={setSelection}
        onToggleActive={() => undefined}
        onDelete={onDelete}
      />
    );
  }
  const router = createMemoryRouter([{ path: '*', element: <Harness /> }], { initialEntries: ['/list'] });
  render(<RouterProvider router={router} />);
  return { at: () => router.state.location.pathname };
}

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1]!).getAllByRole('row');

describe('ResourceTable rows', () => {
  it('a click anywhere on a row opens the record: its detail screen, else the subscriber details, else the edit screen', async () => {
    const user = userEvent.setup();
    const detail = renderTable({ access: grant('view_detail', 'edit') });
    expect(screen.getByRole('link', { name: 'CODE02' })).toHaveAttribute('href', '/voucher-management/vouchers/2');
    await user.click(within(bodyRows()[1]!).getByText('31 Dec 2026'));
    expect(detail.at()).toBe('/voucher-management/vouchers/2');
    cleanup();

    const edit = renderTable({ access: grant('edit') });
    await user.click(within(bodyRows()[0]!).getByText('Percent'));
    expect(edit.at()).toBe('/voucher-management/vouchers/1/edit');
    cleanup();

    const details = renderTable({
      resource: subscribers,
      rows: subscriberRows,
      access: grant('SUBSCRIBER_DETAIL', 'edit'),
    });
    expect(screen.getByRole('link', { name: 'Meera Shah' })).toHaveAttribute(
      'href',
      '/subscriber-management/subscribers/7/details',
    );
    await user.click(screen.getByText('India'));
    expect(details.at()).toBe('/subscriber-management/subscribers/7/details');
  });

  it('a row the user may not open is no link and goes nowhere; a click on a row’s checkbox or switch does not open it', async () => {
    const user = userEvent.setup();
    const closed = renderTable({ access: grant('delete'), selectable: true });
    expect(screen.queryByRole('link', { name: 'CODE01' })).not.toBeInTheDocument();
    expect(bodyRows()[0]).not.toHaveClass('resource-row--opens');
    await user.click(within(bodyRows()[0]!).getByText('Percent'));
    expect(closed.at()).toBe('/list');
    cleanup();

    const open = renderTable({ access: grant('view_detail', 'ACTIVE_INACTIVE'), selectable: true });
    await user.click(screen.getByRole('checkbox', { name: 'Select CODE01' }));
    await user.click(screen.getByRole('switch', { name: 'Active: CODE02' }));
    expect(open.at()).toBe('/list');
    expect(screen.getByRole('checkbox', { name: 'Select CODE01' })).toBeChecked();
  });

  it('the body is one Tab stop; ArrowDown/ArrowUp and j/k move between rows, Home and End to the ends, Space selects, Enter opens', async () => {
    const user = userEvent.setup();
    const table = renderTable({ access: grant('view_detail', 'delete'), selectable: true });
    const rows = bodyRows();
    expect(rows.map((row) => row.tabIndex)).toEqual([0, -1, -1, -1, -1]);
    expect(within(rows[1]!).getByRole('checkbox')).toHaveAttribute('tabindex', '-1');
    expect(within(rows[1]!).getByRole('link')).toHaveAttribute('tabindex', '-1');
    expect(within(rows[1]!).getByRole('button', { name: 'Actions for CODE02' })).toHaveAttribute('tabindex', '-1');

    screen.getByRole('button', { name: 'Active' }).focus();
    await user.tab();
    expect(rows[0]).toHaveFocus();
    await user.keyboard('j');
    expect(bodyRows()[1]).toHaveFocus();
    await user.keyboard('{ArrowDown}');
    expect(bodyRows()[2]).toHaveFocus();
    expect(bodyRows().map((row) => row.tabIndex)).toEqual([-1, -1, 0, -1, -1]);
    expect(within(bodyRows()[2]!).getByRole('checkbox')).toHaveAttribute('tabindex', '0');
    await user.keyboard('k');
    expect(bodyRows()[1]).toHaveFocus();
    await user.keyboard('{End}');
    expect(bodyRows()[4]).toHaveFocus();
    await user.keyboard('{Home}');
    expect(bodyRows()[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(bodyRows()[0]).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.getByRole('checkbox', { name: 'Select CODE01' })).toBeChecked();
    await user.keyboard('jj{Enter}');
    expect(table.at()).toBe('/voucher-management/vouchers/3');
  });

  it('the actions menu offers what the user may do, moves with the arrows and closes on Escape with focus back on its button', async () => {
    const user = userEvent.setup();
    const onDelete = vi.fn();
    renderTable({ access: grant('view_detail', 'edit', 'delete'), onDelete });
    const button = screen.getByRole('button', { name: 'Actions for CODE01' });
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    button.focus();
    await user.keyboard('{Enter}');
    const menu = screen.getByRole('menu', { name: 'Actions for CODE01' });
    const items = within(menu).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['View', 'Edit', 'Delete']);
    expect(items[0]).toHaveAttribute('href', '/voucher-management/vouchers/1');
    expect(items[1]).toHaveAttribute('href', '/voucher-management/vouchers/1/edit');
    expect(items[0]).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    expect(items[2]).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
    await user.click(button);
    await user.click(screen.getByRole('menuitem', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith(voucherRows[0]);
    cleanup();

    renderTable({ resource: subscribers, rows: subscriberRows, access: grant('SUBSCRIBER_DETAIL', 'edit') });
    await user.click(screen.getByRole('button', { name: 'Actions for Meera Shah' }));
    expect(
      within(screen.getByRole('menu'))
        .getAllByRole('menuitem')
        .map((item) => item.textContent),
    ).toEqual(['Details', 'Edit']);
    cleanup();

    renderTable({ access: grant('ACTIVE_INACTIVE') });
    expect(screen.queryByRole('button', { name: /^Actions for/ })).not.toBeInTheDocument();
  });
});

describe('ResourceTable widths', () => {
  let frameWidth = 0;
  let resized: (() => void) | null = null;
  const properties = ['clientWidth', 'offsetWidth'] as const;
  const saved = properties.map((name) => Object.getOwnPropertyDescriptor(HTMLElement.prototype, name));

  beforeEach(() => {
    // jsdom lays nothing out: the frame is as wide as the test says, and each column the style leaves in 250 px.
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', {
      configurable: true,
      get: function (this: HTMLElement) {
        return this.classList.contains('table-frame') ? frameWidth : 0;
      },
    });
    Object.defineProperty(HTMLElement.prototype, 'offsetWidth', {
      configurable: true,
      get: function (this: HTMLElement) {
        const shown = (cell: Element) => getComputedStyle(cell).display !== 'none';
        return this.tagName === 'TABLE'
          ? [...this.querySelectorAll('thead th')].filter(shown).length * 250
          : this.tagName === 'TH' && shown(this)
            ? 250
            : 0;
      },
    });
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(callback: () => void) {
          resized = callback;
        }
        observe() {}
        disconnect() {}
      },
    );
  });
  afterEach(() => {
    properties.forEach((name, index) => {
      const descriptor = saved[index];
      if (descriptor) Object.defineProperty(HTMLElement.prototype, name, descriptor);
      else Reflect.deleteProperty(HTMLElement.prototype, name);
    });
    vi.unstubAllGlobals();
  });

  const headers = () => screen.getAllByRole('columnheader').map((header) => header.textContent?.replace(/[▲▼↕]/g, ''));

  it('hides the columns the manifest ranks least important first, never the label, and shows them again when there is room', () => {
    frameWidth = 1300;
    renderTable({ access: grant('view_detail') });
    // Priority: code, discount_value, is_active, valid_to, discount_type, used_count; 5 columns of 250 px fit.
    expect(headers()).toEqual(['Code', 'Discount value', 'Valid to', 'Active', 'Actions']);
    expect(screen.getByRole('table')).toHaveAccessibleName(/left out to fit the screen: Used, Discount type$/);
    frameWidth = 800;
    act(() => resized?.());
    expect(headers()).toEqual(['Code', 'Discount value', 'Actions']);
    frameWidth = 700;
    act(() => resized?.());
    expect(headers()).toEqual(['Code', 'Actions']);
    frameWidth = 1750;
    act(() => resized?.());
    expect(headers()).toEqual(['Code', 'Discount type', 'Discount value', 'Valid to', 'Used', 'Active', 'Actions']);
  });

  it('phone-wide, a row is a card: the label as its link, the most important values under it, its checkbox and menu kept', async () => {
    frameWidth = 390;
    const user = userEvent.setup();
    const table = renderTable({ access: grant('view_detail', 'delete'), selectable: true });
    const first = bodyRows()[0]!;
    expect(within(first).getByRole('link', { name: 'CODE01' })).toHaveAttribute(
      'href',
      '/voucher-management/vouchers/1',
    );
    // A number shows its column's title (a bare "10" says nothing); the other values are titled for screen readers only.
    expect(first).toHaveTextContent('Discount value 10Active: ActiveValid to: 31 Dec 2026');
    expect(within(first).getByText('Discount value', { exact: false })).not.toHaveClass('visually-hidden');
    expect(within(first).getByText('Valid to:', { exact: false })).toHaveClass('visually-hidden');
    expect(within(first).getByRole('checkbox', { name: 'Select CODE01' })).toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Actions for CODE01' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: /Used/ })).not.toBeInTheDocument();
    await user.click(within(bodyRows()[1]!).getByText('Active'));
    expect(table.at()).toBe('/voucher-management/vouchers/2');
  });
});
