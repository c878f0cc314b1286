import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AccountMenu } from '../header/AccountMenu.tsx';
import { endSession, startSession } from '../session/sessionStore.ts';
import { renderWithRouter } from '../test/renderWithRouter.tsx';
import { makeToken } from '../test/tokens.ts';
import { chooseScheme, chosenScheme, darkSchemeShown, followColourScheme } from './colourScheme.ts';

const signIn = (user: number) => startSession(makeToken({ sub: String(user) }), `refresh-${user}`);
const shown = () => document.documentElement.dataset.scheme ?? 'system';

afterEach(() => {
  endSession('logout');
  localStorage.clear();
  delete document.documentElement.dataset.scheme;
});

describe('the colour scheme', () => {
  it("follows the system until a user chooses; each user's choice is theirs, shown as they sign in and gone as they sign out", () => {
    followColourScheme();
    signIn(1);
    expect(chosenScheme()).toBe('system');
    expect(shown()).toBe('system');
    chooseScheme('dark');
    expect(shown()).toBe('dark');
    expect(darkSchemeShown()).toBe(true);

    endSession('logout');
    expect(shown()).toBe('system');
    signIn(2);
    expect(chosenScheme()).toBe('system');
    expect(shown()).toBe('system');
    chooseScheme('light');
    expect(darkSchemeShown()).toBe(false);

    endSession('logout');
    signIn(1);
    expect(shown()).toBe('dark');
  });

  it('on the system setting, dark is shown when the system asks for it', () => {
    let systemDark = true;
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === '(prefers-color-scheme: dark)' && systemDark,
    }));
    expect(darkSchemeShown()).toBe(true);
    systemDark = false;
    expect(darkSchemeShown()).toBe(false);
    vi.unstubAllGlobals();
  });

  it('is switched in the account menu: three toggle buttons, the chosen one pressed, the menu left open', async () => {
    signIn(3);
    const user = userEvent.setup();
    renderWithRouter(
      <AccountMenu user={{ first_name: 'Asha', last_name: 'Verma', initials: 'AV' }} onLogout={() => undefined} />,
    );
    await user.click(screen.getByRole('button', { name: /account menu/ }));
    const group = screen.getByRole('group', { name: 'Colours' });
    expect(screen.getByRole('button', { name: 'System' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'Dark' }));
    expect(shown()).toBe('dark');
    expect(screen.getByRole('button', { name: 'Dark' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'System' })).toHaveAttribute('aria-pressed', 'false');
    expect(group).toBeInTheDocument();
    expect(chosenScheme()).toBe('dark');
  });
});
