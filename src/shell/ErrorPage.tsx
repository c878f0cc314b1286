import { Link } from 'react-router-dom';
import { ERROR_PAGE_TOP_PADDING_PX } from '../config/constants.ts';
import './ErrorPage.css';

const PAGES = {
  403: { code: 'ERROR 403', text: 'ACCESS DENIED', hint: 'You do not have permission to open this page.' },
  404: { code: 'ERROR 404', text: 'PAGE NOT FOUND', hint: 'The page you asked for does not exist.' },
} as const;

export interface ErrorPageProps {
  status: keyof typeof PAGES;
}

/**
 * ERRPAGE-01..03: the 403 and 404 pages, inside whatever main landmark frames them. Shown at the address that was
 * asked for (only /403 and /404 themselves are addresses of their own).
 */
export function ErrorPage({ status }: ErrorPageProps) {
  const page = PAGES[status];
  return (
    <section
      className="error-page"
      aria-labelledby="error-page-title"
      style={{ paddingTop: ERROR_PAGE_TOP_PADDING_PX }}
    >
      <h1 id="error-page-title">
        <span className="error-page-code">{page.code}</span> {page.text}
      </h1>
      <p>{page.hint}</p>
      <Link className="button button--primary" to="/">
        Go To Homepage
      </Link>
    </section>
  );
}
