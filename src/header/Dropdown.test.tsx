import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Dropdown } from './Dropdown.tsx';

function renderDropdown() {
  render(
    <>
      <p>Outside text</p>
      <Dropdown label="Account" trigger="Open">
        {(close) => (
          <>
            <p>Inside text</p>
            <button type="button">First item</button>
            <button type="button" onClick={close}>
              Close me
            </button>
          </>
        )}
      </Dropdown>
    </>,
  );
  return screen.getByRole('button', { name: 'Account' });
}

describe('dropdowns', () => {
  it('CONST-01 animate in over 220 ms', async () => {
    await userEvent.click(renderDropdown());
    expect(screen.getByRole('region', { name: 'Account' })).toHaveStyle({ animationDuration: '220ms' });
  });

  it('CONST-01 close on an outside click, not on an inside click', async () => {
    const trigger = renderDropdown();
    await userEvent.click(trigger);
    expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await userEvent.click(screen.getByText('Inside text'));
    expect(screen.getByRole('region', { name: 'Account' })).toBeInTheDocument();
    await userEvent.click(screen.getByText('Outside text'));
    expect(screen.queryByRole('region', { name: 'Account' })).not.toBeInTheDocument();
    expect(trigger).toHaveAttribute('aria-expanded', 'false');
  });

  it('CONST-01 work with the keyboard: Enter opens on the first item, Escape closes back on the trigger', async () => {
    const trigger = renderDropdown();
    trigger.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByRole('button', { name: 'First item' })).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Account' })).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
    await userEvent.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'First item' })).toHaveFocus();
    await userEvent.click(screen.getByRole('button', { name: 'Close me' }));
    expect(screen.queryByRole('region', { name: 'Account' })).not.toBeInTheDocument();
  });
});
