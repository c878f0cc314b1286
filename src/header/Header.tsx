import type { Ref } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { GoAnywhereButton } from '../goAnywhere/GoAnywhereButton.tsx';
import { NotificationsMenu } from '../notifications/NotificationsMenu.tsx';
import { usePermissions } from '../permissions/usePermissions.ts';
import { useSession } from '../session/useSession.ts';
import { Brand } from '../shell/Brand.tsx';
import { StrokeIcon } from '../shell/StrokeIcon.tsx';
import { AccountMenu } from './AccountMenu.tsx';
import { backTarget, hasPageBehind } from './backTarget.ts';
import './Header.css';

export interface HeaderProps {
  /** The phone layout's menu button: opens and closes the sidebar drawer (the element with `controls` as id). */
  menu?: { open: boolean; controls: string; onToggle: () => void; buttonRef?: Ref<HTMLButtonElement> };
}

/**
 * The header of signed-in pages: back (HEADER-01), logo (HEADER-02), and when logged in the two dropdowns
 * (HEADER-03), after Go anywhere; on a phone, first the menu button of the sidebar drawer. Back returns to the previous page, and with
 * none in this tab (a link opened in a new tab) goes up to the page's list or the landing page, never out of the console.
 */
export function Header({ menu }: HeaderProps) {
  const navigate = useNavigate();
  const location = useLocation();
  const { user, logout, landingPath } = useSession();
  const { permissions } = usePermissions();
  const behind = hasPageBehind(location.key);
  const up = behind ? null : backTarget(location.pathname, permissions, landingPath);
  const goBack = () => {
    if (behind) void navigate(-1);
    else if (up) void navigate(up);
  };
  return (
    <header className="app-header">
      {menu && (
        <button
          ref={menu.buttonRef}
          type="button"
          className="icon-button header-menu-button"
          aria-label="Main menu"
          aria-expanded={menu.open}
          aria-controls={menu.controls}
          onClick={menu.onToggle}
        >
          <StrokeIcon icon="menu" />
        </button>
      )}
      <button
        type="button"
        className="icon-button"
        aria-label="Back"
        aria-disabled={!behind && !up ? true : undefined}
        onClick={goBack}
      >
        <StrokeIcon icon="back" />
      </button>
      <Brand />
      {user && (
        <div className="header-actions">
          <GoAnywhereButton />
          <NotificationsMenu initials={user.initials} />
          <AccountMenu user={user} onLogout={() => void logout()} />
        </div>
      )}
    </header>
  );
}
