import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { ErrorPage } from './ErrorPage.tsx';

const renderPage = (status: 403 | 404) => renderRoutes([{ path: '*', element: <ErrorPage status={status} /> }], ['/x']);

describe('error pages', () => {
  it('ERRPAGE-01 the 403 page says ERROR 403 ACCESS DENIED with a Go To Homepage button to /', () => {
    renderPage(403);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ERROR 403 ACCESS DENIED');
    expect(screen.getByRole('link', { name: 'Go To Homepage' })).toHaveAttribute('href', '/');
  });

  it('ERRPAGE-02 the 404 page says ERROR 404 PAGE NOT FOUND with the same button', () => {
    renderPage(404);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('ERROR 404 PAGE NOT FOUND');
    expect(screen.getByRole('link', { name: 'Go To Homepage' })).toHaveAttribute('href', '/');
  });

  it('ERRPAGE-03 error pages have 75px top padding', () => {
    renderPage(404);
    expect(screen.getByRole('region', { name: 'ERROR 404 PAGE NOT FOUND' })).toHaveStyle({ paddingTop: '75px' });
  });
});
