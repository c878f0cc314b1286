import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { endSession, startSession } from '../session/sessionStore.ts';
import { makeToken } from '../test/tokens.ts';
import { createMemoryAppHistory } from './appHistory.ts';
import { AppRouter } from './AppRouter.tsx';
import { createAppRouter } from './createAppRouter.ts';
import { chunkRoute } from './routeChunk.tsx';
import { RouteErrorBoundary } from './RouteErrorBoundary.tsx';

/** A chunk that arrives when the test says so. */
function deferredChunk<Module>(module: Module) {
  let arrive: () => void = () => undefined;
  const arrived = new Promise<Module>((resolve) => (arrive = () => resolve(module)));
  return { load: vi.fn(() => arrived), arrive: () => arrive() };
}

function Layout() {
  return (
    <section aria-label="Layout">
      <Outlet />
    </section>
  );
}

describe('route chunks', () => {
  it("load a layout's chunk and its screen's side by side as soon as a link is followed, then change the address and render both", async () => {
    const layout = deferredChunk({ Layout });
    const screenChunk = deferredChunk({ Screen: () => <h1>Screen</h1> });
    const routes = [
      {
        element: (
          <Suspense fallback={<p>Loading…</p>}>
            <Outlet />
          </Suspense>
        ),
        children: [
          chunkRoute(layout.load, (module) => module.Layout, {
            children: [chunkRoute(screenChunk.load, (module) => module.Screen, { path: '/screen' })],
          }),
        ],
      },
      { path: '/start', element: <h1>Start</h1> },
    ];
    const { history } = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/start'], prepare));
    render(<AppRouter history={history} routes={routes} />);
    expect(layout.load).not.toHaveBeenCalled();
    history.push('/screen');
    // Rendering alone would ask for the screen only once the layout had arrived.
    expect(layout.load).toHaveBeenCalled();
    expect(screenChunk.load).toHaveBeenCalled();
    // The address and the page change together, once the chunks are there.
    expect(history.location.pathname).toBe('/start');
    expect(screen.getByRole('heading', { name: 'Start' })).toBeInTheDocument();

    screenChunk.arrive();
    layout.arrive();
    expect(await screen.findByRole('heading', { name: 'Screen' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Layout' })).toContainElement(
      screen.getByRole('heading', { name: 'Screen' }),
    );
    expect(history.location.pathname).toBe('/screen');
  });

  it('render at once, with no loading status, when their chunk is already there', async () => {
    const chunk = chunkRoute(
      () => Promise.resolve({ Screen: () => <h1>Screen</h1> }),
      (module) => module.Screen,
      { path: '/screen' },
    );
    const routes = [
      {
        element: (
          <Suspense fallback={<p>Loading…</p>}>
            <Outlet />
          </Suspense>
        ),
        children: [chunk],
      },
    ];
    const router = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/screen'], prepare));
    await router.firstChunks;
    render(<AppRouter history={router.history} routes={router.routes} />);
    expect(screen.getByRole('heading', { name: 'Screen' })).toBeInTheDocument();
    expect(screen.queryByText('Loading…')).not.toBeInTheDocument();
  });

  it('load again after a failure: a chunk that could not be fetched (offline) shows on the next visit', async () => {
    let online = false;
    const load = () =>
      online
        ? Promise.resolve({ Screen: () => <h1>Screen</h1> })
        : Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    const routes = [
      {
        element: (
          <RouteErrorBoundary>
            <Suspense fallback={<p>Loading…</p>}>
              <Outlet />
            </Suspense>
          </RouteErrorBoundary>
        ),
        children: [
          chunkRoute(load, (module) => module.Screen, { path: '/screen' }),
          { path: '/start', element: <h1>Start</h1> },
        ],
      },
    ];
    const { history } = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/start'], prepare));
    render(<AppRouter history={history} routes={routes} />);
    const reportedByReact = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      // The preload before the move fails, and the render's own attempts too: the page says so.
      history.push('/screen');
      expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    } finally {
      reportedByReact.mockRestore();
    }
    online = true;
    history.push('/start');
    expect(await screen.findByRole('heading', { name: 'Start' })).toBeInTheDocument();
    history.push('/screen');
    expect(await screen.findByRole('heading', { name: 'Screen' })).toBeInTheDocument();
  });

  it('start loading for the address the console opens at', () => {
    const screenChunk = deferredChunk({ Screen: () => <h1>Screen</h1> });
    createAppRouter([chunkRoute(screenChunk.load, (module) => module.Screen, { path: '/screen' })], (prepare) =>
      createMemoryAppHistory(['/screen'], prepare),
    );
    expect(screenChunk.load).toHaveBeenCalledTimes(1);
  });
});

describe("a screen's first data", () => {
  afterEach(() => {
    endSession('logout');
    vi.useRealTimers();
  });

  /** A route already loaded whose screen fetches data that arrives when the test says so. */
  function dataRoute(path: string) {
    let arrive: () => void = () => undefined;
    const prefetch = vi.fn<(location: { pathname?: string; search?: string }) => Promise<void>>(
      () => new Promise<void>((resolve) => (arrive = resolve)),
    );
    const route = {
      path,
      element: <h1>{path}</h1>,
      handle: { preload: () => Promise.resolve(), loaded: () => true, prefetch },
    };
    return { route, prefetch, arrive: () => arrive() };
  }

  it("is asked for before the address changes, with the address's query, and the move waits for it", async () => {
    startSession(makeToken(), 'refresh-1');
    const list = dataRoute('/list');
    const routes = [{ path: '/start', element: <h1>/start</h1> }, list.route];
    const { history } = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/start'], prepare));
    render(<AppRouter history={history} routes={routes} />);
    history.push('/list?status=trial');
    expect(list.prefetch).toHaveBeenCalledWith(expect.objectContaining({ pathname: '/list', search: '?status=trial' }));
    await Promise.resolve();
    expect(history.location.pathname).toBe('/start');
    list.arrive();
    expect(await screen.findByRole('heading', { name: '/list' })).toBeInTheDocument();
  });

  it('is waited for a moment at most: slow data shows the screen with its loading state', async () => {
    vi.useFakeTimers();
    startSession(makeToken(), 'refresh-1');
    const list = dataRoute('/list');
    const routes = [{ path: '/start', element: <h1>/start</h1> }, list.route];
    const { history } = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/start'], prepare));
    render(<AppRouter history={history} routes={routes} />);
    history.push('/list');
    await vi.advanceTimersByTimeAsync(200);
    expect(history.location.pathname).toBe('/start');
    await vi.advanceTimersByTimeAsync(100);
    expect(history.location.pathname).toBe('/list');
  });

  it('is not asked for by a move within the same screen, nor when no one is signed in', () => {
    const list = dataRoute('/list');
    const routes = [{ path: '/start', element: <h1>/start</h1> }, list.route];
    const signedOut = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/start'], prepare));
    signedOut.history.push('/list');
    expect(list.prefetch).not.toHaveBeenCalled();
    expect(signedOut.history.location.pathname).toBe('/list');

    startSession(makeToken(), 'refresh-1');
    const { history } = createAppRouter(routes, (prepare) => createMemoryAppHistory(['/list'], prepare));
    history.push('/list?page=2');
    expect(list.prefetch).not.toHaveBeenCalled();
    expect(history.location.search).toBe('?page=2');
  });
});
