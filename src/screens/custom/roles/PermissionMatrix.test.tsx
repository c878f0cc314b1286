import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PermissionMatrix } from './PermissionMatrix.tsx';
import { matrixAreas, type PermissionSet } from './permissionMatrix.ts';

function Matrix({ initial, copied }: { initial: PermissionSet; copied?: PermissionSet }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <PermissionMatrix
        areas={matrixAreas()}
        value={value}
        onChange={setValue}
        tools={
          copied &&
          ((apply) => (
            <button type="button" onClick={() => apply(copied, 'Copied the permissions of Sales.')}>
              Copy Sales
            </button>
          ))
        }
      />
      <output aria-label="Saved set">{JSON.stringify(value)}</output>
    </>
  );
}

const box = (name: string) => screen.getByRole('checkbox', { name });
const savedSet = () =>
  JSON.parse(screen.getByRole('status', { name: 'Saved set' }).textContent ?? '{}') as PermissionSet;
const matrixNote = () => screen.getAllByRole('status').find((status) => status.tagName === 'P');

describe('the role matrix keeps actions consistent', () => {
  it('taking View away takes the actions that need it along, and says so before anything is saved', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{ VOUCHER: ['view', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download'] }} />);
    await user.click(box('Vouchers: View'));
    for (const action of ['Edit', 'Delete', 'Activate or deactivate', 'Download'])
      expect(box(`Vouchers: ${action}`)).not.toBeChecked();
    expect(savedSet()).toEqual({});
    expect(matrixNote()).toHaveTextContent(
      'Vouchers: Edit, Delete, Activate or deactivate, Download taken away too, as they need View.',
    );
  });

  it('granting an action that needs View grants View, marks it implied, and says so', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{}} />);
    expect(box('Banners: View')).not.toHaveAccessibleDescription();
    await user.click(box('Banners: Edit'));
    expect(box('Banners: View')).toBeChecked();
    expect(box('Banners: View')).toHaveAccessibleDescription('Ticked because another action of this module needs it.');
    expect(savedSet()).toEqual({ BANNER: ['view', 'edit'] });
    expect(matrixNote()).toHaveTextContent('Banners: View granted too, as Edit needs it.');
    // An action granted beside View already takes nothing along, and the note goes.
    await user.click(box('Banners: Delete'));
    expect(savedSet()).toEqual({ BANNER: ['view', 'edit', 'delete'] });
    expect(screen.queryByText(/granted too/)).not.toBeInTheDocument();
  });

  it('the actions are named in words, not codes, and explained once in the legend', () => {
    render(<Matrix initial={{}} />);
    expect(box('Subscribers: Add top-up')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /ACTIVE_INACTIVE|Active inactive/ })).not.toBeInTheDocument();
    const legend = screen.getByText('What the actions mean').closest('details')!;
    expect(within(legend).getByText('View detail').nextElementSibling).toHaveTextContent("Open a record's own page");
    expect(within(legend).getAllByText('View')).toHaveLength(1);
  });
});

describe('one aligned matrix', () => {
  it('is one table: a column per action, a group of rows per area, a row per module', () => {
    render(<Matrix initial={{}} />);
    expect(screen.getAllByRole('table')).toHaveLength(1);
    const headings = screen.getAllByRole('columnheader').map((heading) => heading.textContent);
    expect(headings[0]).toBe('Module');
    expect(new Set(headings).size).toBe(headings.length);
    expect(headings).toEqual(expect.arrayContaining(['View', 'View detail', 'Own subscribers only']));
    const area = screen.getByRole('rowheader', { name: /^Voucher Management/ });
    expect(area).toHaveAttribute('scope', 'rowgroup');
    // The area's own View (the area in the sidebar) sits in the View column of the area's row.
    expect(within(area.closest('tr')!).getByRole('checkbox', { name: 'Voucher Management: View' })).toBeInTheDocument();
    expect(screen.getByRole('rowheader', { name: /^Vouchers/ })).toHaveAttribute('scope', 'row');
  });

  it('a search narrows the rows to the modules (or areas) named, and says when none is', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{}} />);
    await user.type(screen.getByRole('searchbox', { name: 'Search modules' }), 'vouch');
    expect(screen.getAllByRole('rowheader').map((row) => row.textContent)).toEqual(['Voucher Management', 'Vouchers']);
    await user.clear(screen.getByRole('searchbox', { name: 'Search modules' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search modules' }), 'roles');
    expect(screen.getAllByRole('rowheader').map((row) => row.textContent)).toEqual(['User Management', 'Roles']);
    await user.type(screen.getByRole('searchbox', { name: 'Search modules' }), 'xyz');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByText('No module matches “rolesxyz”.')).toBeInTheDocument();
  });

  it("selects an area's every action, then clears it", async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{}} />);
    await user.click(box('Voucher Management: every action of the area'));
    expect(savedSet()).toEqual({
      VOUCHER_MANAGEMENT: ['view'],
      VOUCHER: ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download', 'view_detail', 'import'],
    });
    expect(box('Voucher Management: every action of the area')).toBeChecked();
    await user.click(box('Vouchers: Import'));
    expect(box('Voucher Management: every action of the area')).toHaveAttribute('aria-checked', 'mixed');
    await user.click(box('Voucher Management: every action of the area'));
    await user.click(box('Voucher Management: every action of the area'));
    expect(savedSet()).toEqual({});
  });

  it('selects a column for the modules shown, granting View with it', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{}} />);
    await user.type(screen.getByRole('searchbox', { name: 'Search modules' }), 'user management');
    await user.click(box('Download: every module shown'));
    expect(savedSet()).toEqual({ USERS: ['view', 'download'], AUDIT_LOG: ['view', 'download'] });
    expect(matrixNote()).toHaveTextContent('View granted too for 2 modules, as Download needs it.');
    await user.click(box('View: every module shown'));
    expect(savedSet()).toEqual({
      USER_MANAGEMENT: ['view'],
      USERS: ['view', 'download'],
      ROLES: ['view'],
      AUDIT_LOG: ['view', 'download'],
      API_TOKENS: ['view'],
      WEBHOOKS: ['view'],
    });
    await user.click(box('View: every module shown'));
    expect(savedSet()).toEqual({});
  });

  it("a module's row box selects all its actions", async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{}} />);
    await user.click(box('Roles: all actions'));
    expect(savedSet()).toEqual({ ROLES: ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'view_detail'] });
  });

  it('copying another role replaces the ticked boxes and says that nothing is saved yet', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{ BANNER: ['view'] }} copied={{ VOUCHER: ['view', 'download'] }} />);
    await user.click(screen.getByRole('button', { name: 'Copy Sales' }));
    expect(savedSet()).toEqual({ VOUCHER: ['view', 'download'] });
    expect(box('Banners: View')).not.toBeChecked();
    expect(box('Vouchers: Download')).toBeChecked();
    expect(matrixNote()).toHaveTextContent('Copied the permissions of Sales.');
  });
});
