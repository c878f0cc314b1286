import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { ErrorPage } from '../shell/ErrorPage.tsx';

/** What a route shows when it throws, e.g. a chunk that failed to load after a new release. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <main id="main" tabIndex={-1}>
        <ErrorPage status={404} />
      </main>
    );
  }
  return (
    <main id="main" className="error-page" role="alert">
      <h1>Something went wrong</h1>
      <p>This page could not be shown. Reloading usually helps after the console was updated.</p>
      <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
        Reload
      </button>
    </main>
  );
}
