import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';

/** Renders `ui` at every path of a memory router (with a fresh query client), starting at the last entry. */
export function renderWithRouter(ui: ReactNode, entries: string[] = ['/']) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element: <QueryClientProvider client={client}>{ui}</QueryClientProvider> }], {
    initialEntries: entries,
    initialIndex: entries.length - 1,
  });
  return { router, client, ...render(<RouterProvider router={router} />) };
}
