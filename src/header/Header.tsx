import { useNavigate } from 'react-router-dom';
import { NotificationsMenu } from '../notifications/NotificationsMenu.tsx';
import { useSession } from '../session/useSession.ts';
import { Brand } from '../shell/Brand.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import './Header.css';

/** The header of signed-in pages: back (HEADER-01), logo (HEADER-02), and when logged in the two dropdowns (HEADER-03). */
export function Header() {
  const navigate = useNavigate();
  const { user, logout } = useSession();
  return (
    <header className="app-header">
      <button type="button" className="icon-button" aria-label="Back" onClick={() => void navigate(-1)}>
        <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="M15 5l-7 7 7 7" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
      </button>
      <Brand />
      {user && (
        <div className="header-actions">
          <NotificationsMenu initials={user.initials} />
          <AccountMenu user={user} onLogout={() => void logout()} />
        </div>
      )}
    </header>
  );
}
