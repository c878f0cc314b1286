import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { SIGN_IN_PATH } from '../../contract/signInPage.ts';
import { GuestLayout } from '../layout/GuestLayout.tsx';
import { LoginScreen } from './LoginScreen.tsx';

/**
 * The sign-in screen as HTML, rendered by the console's build (server/console/signInPage.ts) from the same components
 * the console renders at /auth/login, for the page of that address.
 */
export function signInMarkup(): string {
  const [area, screen] = SIGN_IN_PATH.slice(1).split('/');
  return renderToStaticMarkup(
    <MemoryRouter initialEntries={[SIGN_IN_PATH]}>
      <Routes>
        <Route path={area} element={<GuestLayout />}>
          <Route path={screen} element={<LoginScreen />} />
        </Route>
      </Routes>
    </MemoryRouter>,
  );
}
