import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { PermissionMatrix } from './PermissionMatrix.tsx';
import { matrixAreas, type PermissionSet } from './permissionMatrix.ts';

function Matrix({ initial }: { initial: PermissionSet }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <PermissionMatrix areas={matrixAreas()} value={value} onChange={setValue} />
      <output aria-label="Saved set">{JSON.stringify(value)}</output>
    </>
  );
}

const box = (name: string) => screen.getByRole('checkbox', { name });
const savedSet = () => JSON.parse(screen.getByRole('status', { name: 'Saved set' }).textContent ?? '{}') as PermissionSet;

// The whole matrix (hundreds of boxes) renders on every tick: slow on a busy machine.
const MATRIX_MS = 15_000;

describe('the role matrix keeps actions consistent', () => {
  it('taking View away takes the actions that need it along, and says so before anything is saved', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{ VOUCHER: ['view', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download'] }} />);
    await user.click(box('Vouchers: View'));
    for (const action of ['Edit', 'Delete', 'Activate or deactivate', 'Download']) expect(box(`Vouchers: ${action}`)).not.toBeChecked();
    expect(savedSet()).toEqual({});
    expect(screen.getAllByText('Vouchers: Edit, Delete, Activate or deactivate, Download taken away too, as they need View.')).not.toHaveLength(0);
  }, MATRIX_MS);

  it('granting an action that needs View grants View, and says so', async () => {
    const user = userEvent.setup();
    render(<Matrix initial={{}} />);
    await user.click(box('Banners: Edit'));
    expect(box('Banners: View')).toBeChecked();
    expect(savedSet()).toEqual({ BANNER: ['view', 'edit'] });
    expect(screen.getAllByText('Banners: View granted too, as Edit needs it.')).not.toHaveLength(0);
    // An action granted beside View already takes nothing along, and the note goes.
    await user.click(box('Banners: Delete'));
    expect(savedSet()).toEqual({ BANNER: ['view', 'edit', 'delete'] });
    expect(screen.queryByText(/granted too/)).not.toBeInTheDocument();
  }, MATRIX_MS);

  it('the actions are named in words, not codes', () => {
    render(<Matrix initial={{}} />);
    expect(box('Subscribers: Add top-up')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: /ACTIVE_INACTIVE|Active inactive/ })).not.toBeInTheDocument();
  });
});
