import { act, screen } from '@testing-library/react';
import { Outlet } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/renderWithRouter.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

function Broken(): never {
  throw new Error('The chunk could not be loaded.');
}

describe('a route that throws', () => {
  it('shows the reload page in place of the routes, and the next address renders again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const routes = [
      {
        element: (
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: [
          { path: '/broken', element: <Broken /> },
          { path: '/fine', element: <h1>Fine</h1> },
        ],
      },
    ];
    const { history } = renderRoutes(routes, ['/broken']);
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
    expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();

    await act(() => history.push('/fine'));
    expect(await screen.findByRole('heading', { name: 'Fine' })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    vi.restoreAllMocks();
  });
});
