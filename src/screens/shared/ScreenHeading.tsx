import { useEffect, useRef, type ReactNode } from 'react';
import { PRODUCT_NAME } from '../../config/constants.ts';
import { focusUntouchedSinceNavigation } from '../../shell/navigationFocus.ts';

/** The id of the open screen's h1; the screen's section is labelled by it. */
export const SCREEN_TITLE_ID = 'screen-title';

export interface ScreenHeadingProps {
  children: ReactNode;
  /** Buttons and links beside the heading. */
  actions?: ReactNode;
}

/**
 * A screen's h1, focused when the screen opens so keyboard and screen-reader users start at its top, unless the user
 * has put focus elsewhere while the screen loaded. It names the browser tab too ("Vouchers · Trade Data Admin"), as
 * it reads once rendered (a record's name arrives with the record), so tabs and history tell screens apart.
 */
export function ScreenHeading({ children, actions }: ScreenHeadingProps) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focusUntouchedSinceNavigation()) ref.current?.focus({ preventScroll: true });
  }, []);
  useEffect(() => {
    const heading = ref.current?.textContent?.trim();
    document.title = heading ? `${heading} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  });
  return (
    <div className="screen-heading">
      <h1 id={SCREEN_TITLE_ID} ref={ref} tabIndex={-1}>
        {children}
      </h1>
      {actions && <div className="screen-heading__actions">{actions}</div>}
    </div>
  );
}
