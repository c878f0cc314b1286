import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { lazy, Suspense } from 'react';
import { Link, Outlet } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { followNavigationFocus } from '../../shell/navigationFocus.ts';
import { renderRoutes } from '../../test/renderWithRouter.tsx';
import { ScreenHeading } from './ScreenHeading.tsx';

/** A screen whose code arrives when the test says so, like an area chunk over the network. */
function slowScreen() {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const Screen = lazy(async () => {
    await arrived;
    return { default: () => <ScreenHeading>Vouchers</ScreenHeading> };
  });
  return { Screen, arrive: () => act(async () => arrive()) };
}

function renderFrame(path: string) {
  const { Screen, arrive } = slowScreen();
  const routes = [
    {
      element: (
        <>
          <button type="button">Account menu</button>
          <Link to="/vouchers">Vouchers link</Link>
          <Suspense fallback={<p>Loading…</p>}>
            <Outlet />
          </Suspense>
        </>
      ),
      children: [
        { path: '/vouchers', element: <Screen /> },
        { path: '/home', element: <p>Home</p> },
      ],
    },
  ];
  const { history } = renderRoutes(routes, [path]);
  followNavigationFocus(history);
  return { history, arrive };
}

describe('the screen heading', () => {
  it('takes focus when the screen loads after a navigation the user left alone', async () => {
    const { arrive } = renderFrame('/home');
    await userEvent.click(screen.getByRole('link', { name: 'Vouchers link' }));
    await arrive();
    expect(await screen.findByRole('heading', { name: 'Vouchers' })).toHaveFocus();
  });

  it('leaves focus where the user put it while the screen loaded (an open account menu stays open)', async () => {
    const { arrive } = renderFrame('/vouchers');
    await userEvent.click(screen.getByRole('button', { name: 'Account menu' }));
    await arrive();
    await screen.findByRole('heading', { name: 'Vouchers' });
    expect(screen.getByRole('button', { name: 'Account menu' })).toHaveFocus();
  });

  it("names the browser tab after the heading as it reads once rendered, then after the next screen's", async () => {
    const { rerender } = render(<ScreenHeading>Vouchers</ScreenHeading>);
    expect(document.title).toBe('Vouchers · Trade Data Admin');
    rerender(<ScreenHeading>Voucher DIWALI25</ScreenHeading>);
    expect(document.title).toBe('Voucher DIWALI25 · Trade Data Admin');
  });
});
