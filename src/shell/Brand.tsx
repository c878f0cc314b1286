import { Link } from 'react-router-dom';
import { PRODUCT_NAME } from '../config/constants.ts';

/** The logo, linking to / (HEADER-02). */
export function Brand() {
  return (
    <Link to="/" className="brand" aria-label={`${PRODUCT_NAME}, home`}>
      <svg className="brand-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path
          d="M8 22 L14 14 L18 18 L24 9"
          stroke="var(--color-on-primary)"
          strokeWidth="3"
          fill="none"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="brand-name">{PRODUCT_NAME}</span>
    </Link>
  );
}
