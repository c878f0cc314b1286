import { useState } from 'react';
import { Link } from 'react-router-dom';
import { AREAS } from '../generated/routes.ts';
import { CanAccess } from '../permissions/CanAccess.tsx';
import type { SessionUser } from '../session/sessionUser.ts';
import { chooseScheme, chosenScheme, type ColourScheme } from '../shell/colourScheme.ts';
import { Dropdown } from './Dropdown.tsx';

export interface AccountMenuProps {
  user: SessionUser;
  onLogout: () => void;
}

/** The developers' registry of modules, linked from no sidebar entry: its screen as the route table gives it. */
const MODULE_REGISTRY = AREAS.flatMap((area) => area.resources).find(
  (resource) => resource.module === 'MODULE_REGISTRY',
);

const SCHEMES: { value: ColourScheme; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

/**
 * HEADER-04..06: name and initials, Profile (with USER_PROFILE view), the Module Registry (with the view permission
 * its route is guarded by), the colour scheme (the system's, or always light or dark; kept for this user on this
 * browser) and Logout.
 */
export function AccountMenu({ user, onLogout }: AccountMenuProps) {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return (
    <Dropdown
      // The name starts with the visible text (initials and first name), as speech users say it (WCAG 2.5.3).
      label={`${user.initials} ${name}, account menu`}
      className="account-menu"
      trigger={
        <>
          <span className="avatar" aria-hidden="true">
            {user.initials}
          </span>{' '}
          <span className="account-name" aria-hidden="true">
            {user.first_name}
          </span>
        </>
      }
    >
      {(close) => (
        <>
          <div className="account-summary">
            <span className="avatar avatar-large">{user.initials}</span>
            <span className="account-full-name">{name}</span>
          </div>
          <ul className="menu-list">
            <CanAccess module="USER_PROFILE" action="view">
              <li>
                <Link className="menu-item" to="/profile-management/profile" onClick={close}>
                  Profile
                </Link>
              </li>
            </CanAccess>
            {MODULE_REGISTRY && (
              <CanAccess module={MODULE_REGISTRY.module} action="view">
                <li>
                  <Link className="menu-item" to={MODULE_REGISTRY.path} onClick={close}>
                    {MODULE_REGISTRY.label}
                  </Link>
                </li>
              </CanAccess>
            )}
            <li>
              <SchemeSwitch />
            </li>
            <li>
              <button
                type="button"
                className="menu-item"
                onClick={() => {
                  close();
                  onLogout();
                }}
              >
                Logout
              </button>
            </li>
          </ul>
        </>
      )}
    </Dropdown>
  );
}

/** Three toggle buttons; the menu stays open, so the change is seen at once and can be undone. */
function SchemeSwitch() {
  const [scheme, setScheme] = useState(chosenScheme);
  return (
    <div className="scheme-switch" role="group" aria-labelledby="scheme-switch-label">
      <span id="scheme-switch-label" className="scheme-switch__label">
        Colours
      </span>
      {SCHEMES.map((option) => (
        <button
          key={option.value}
          type="button"
          className="scheme-switch__option"
          aria-pressed={scheme === option.value}
          onClick={() => {
            chooseScheme(option.value);
            setScheme(option.value);
          }}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}
