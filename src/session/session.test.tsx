import { renderHook, waitFor } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '../config/config.ts';
import { tokenStorageKey } from '../config/tokenStorageKey.ts';
import { api, setupApiServer } from '../test/apiServer.ts';
import { makeToken } from '../test/tokens.ts';
import { decodeClaims, isExpired } from './claims.ts';
import { landingPath, safeAppPath } from './landingPath.ts';
import { logout } from './logout.ts';
import { refreshSession } from './refreshSession.ts';
import { checkSession, sessionStore, startSession } from './sessionStore.ts';
import { runSession } from './sessionTimers.ts';
import { tokenStore } from './tokenStore.ts';
import { useSession } from './useSession.ts';

const server = setupApiServer();
const nowSeconds = () => Math.floor(Date.now() / 1000);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the session token', () => {
  it('SESSION-01 decodes the middle part of a three-part token for exp, first_name, last_name and default_url', () => {
    const token = makeToken({
      exp: 2_000_000_000,
      first_name: 'Asha',
      last_name: 'Verma',
      default_url: '/masters/countries',
    });
    expect(decodeClaims(token)).toMatchObject({
      exp: 2_000_000_000,
      first_name: 'Asha',
      last_name: 'Verma',
      default_url: '/masters/countries',
    });
    expect(decodeClaims(token.split('.').slice(0, 2).join('.'))).toBeNull();
  });

  it('SESSION-02 keeps the tokens in localStorage under the configured key and key + _REFRESH', () => {
    startSession('header.payload.sig', 'refresh-token');
    expect(localStorage.getItem(config.tokenStorageKey)).toBe('header.payload.sig');
    expect(localStorage.getItem(`${config.tokenStorageKey}_REFRESH`)).toBe('refresh-token');
  });

  it('SESSION-02 in production the key starts with prod and ends with auth-token', () => {
    expect(tokenStorageKey(undefined, true)).toMatch(/^prod.*auth-token$/);
    expect(tokenStorageKey('prod-trade-admin-auth-token', true)).toBe('prod-trade-admin-auth-token');
    expect(() => tokenStorageKey('staging-auth-token', true)).toThrow(/must start with "prod"/);
    expect(() => tokenStorageKey('prod-token', true)).toThrow(/end with "auth-token"/);
    expect(tokenStorageKey('local-token', false)).toBe('local-token');
  });

  it('SESSION-03 logged in means a token is stored and not past exp, compared in whole seconds', () => {
    expect(sessionStore.get().loggedIn).toBe(false);
    startSession(makeToken({ exp: nowSeconds() + 60 }), 'r');
    expect(sessionStore.get().loggedIn).toBe(true);

    const exp = nowSeconds() + 10;
    const claims = decodeClaims(makeToken({ exp }))!;
    expect(isExpired(claims, (exp - 1) * 1000 + 999)).toBe(false);
    expect(isExpired(claims, exp * 1000)).toBe(true);
    expect(isExpired(claims, exp * 1000 + 1)).toBe(true);
  });

  it('SESSION-04 an expired token, when checked, logs out', () => {
    const ended = vi.fn();
    const stop = sessionStore.onEnd(ended);
    startSession(makeToken({ exp: nowSeconds() + 2 }), 'r');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 5_000);
    expect(checkSession()).toBe(false);
    expect(tokenStore.access()).toBeNull();
    expect(sessionStore.get().loggedIn).toBe(false);
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });

  it('SESSION-04 the running session ends itself at exp when no refresh token is kept', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    localStorage.setItem(tokenStore.accessKey, makeToken({ exp: nowSeconds() + 30 }));
    const stop = runSession();
    expect(sessionStore.get().loggedIn).toBe(true);
    await vi.advanceTimersByTimeAsync(31_000);
    expect(sessionStore.get().loggedIn).toBe(false);
    expect(tokenStore.access()).toBeNull();
    stop();
  });

  it('SESSION-05 a token that cannot be decoded counts as logged out: no initials, no landing path', () => {
    startSession('not-a-token', 'r');
    const { result } = renderHook(() => useSession());
    expect(result.current.loggedIn).toBe(false);
    expect(result.current.user).toBeNull();
    expect(result.current.landingPath).toBeNull();
  });

  it('HEADER-04 the user is first and last name with their uppercased initials', () => {
    startSession(makeToken({ first_name: 'asha', last_name: 'verma' }), 'r');
    const { result } = renderHook(() => useSession());
    expect(result.current.user).toEqual({ first_name: 'asha', last_name: 'verma', initials: 'AV' });
  });
});

describe('logout', () => {
  it('SESSION-07 sends POST logout with {}, removes both tokens and broadcasts the logout event', async () => {
    const bodies: unknown[] = [];
    server.use(
      mock.post(api('logout'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    const ended = vi.fn();
    const stop = sessionStore.onEnd(ended);
    startSession(makeToken(), 'refresh-1');
    await logout();
    expect(bodies).toEqual([{}]);
    expect(localStorage.getItem(tokenStore.accessKey)).toBeNull();
    expect(localStorage.getItem(tokenStore.refreshKey)).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
  });

  it('SESSION-07 every open tab hears the logout: the storage event of another tab logs this one out', () => {
    const stopSession = runSession();
    startSession(makeToken(), 'refresh-1');
    const ended = vi.fn();
    const stop = sessionStore.onEnd(ended);
    // Another tab logged out: the browser removed the key and fires "storage" here.
    localStorage.removeItem(tokenStore.accessKey);
    window.dispatchEvent(new StorageEvent('storage', { key: tokenStore.accessKey, oldValue: 'x', newValue: null }));
    expect(sessionStore.get().loggedIn).toBe(false);
    expect(ended).toHaveBeenCalledTimes(1);
    stop();
    stopSession();
  });

  it('a logout is remembered as a logout, even when the server answers its call with 401; an expiry as an expiry', async () => {
    server.use(mock.post(api('logout'), () => HttpResponse.json({ message: 'Token expired' }, { status: 401 })));
    startSession(makeToken(), 'refresh-1');
    expect(sessionStore.endReason()).toBeNull();
    await logout();
    expect(sessionStore.endReason()).toBe('logout');
    localStorage.setItem(tokenStore.accessKey, makeToken({ exp: nowSeconds() - 1 }));
    checkSession();
    expect(sessionStore.endReason()).toBe('expired');
    startSession(makeToken(), 'refresh-1');
    expect(sessionStore.endReason()).toBeNull();
  });

  it('SESSION-08 logout clears the session even when the server call fails', async () => {
    server.use(mock.post(api('logout'), () => HttpResponse.json({ message: 'Down' }, { status: 500 })));
    startSession(makeToken(), 'refresh-1');
    await logout();
    expect(tokenStore.access()).toBeNull();
    expect(tokenStore.refresh()).toBeNull();
    expect(sessionStore.get().loggedIn).toBe(false);
  });
});

describe('the landing path', () => {
  it('ROUTE-15 is the token default_url when it is a path inside the app', () => {
    expect(landingPath(decodeClaims(makeToken({ default_url: '/voucher-management/vouchers' })))).toBe(
      '/voucher-management/vouchers',
    );
    expect(landingPath(decodeClaims(makeToken({ default_url: '/masters/countries?page=2' })))).toBe(
      '/masters/countries?page=2',
    );
  });

  it.each([
    '//evil.example.com',
    '/\\evil.example.com',
    'https://evil.example.com/x',
    'javascript:alert(1)',
    '%2F%2Fevil.example.com',
    '/%2F%2Fevil.example.com',
    '/%5Cevil.example.com',
    '%252F%252Fevil.example.com',
    'voucher-management',
    '/auth/login',
    '/',
  ])('ROUTE-15 never lands outside the app or back on a guest page: %s', (url) => {
    expect(landingPath(decodeClaims(makeToken({ default_url: url })))).toBeNull();
  });

  it('safeAppPath keeps ordinary paths', () => {
    expect(safeAppPath('/profile-management/profile#top')).toBe('/profile-management/profile#top');
  });
});

describe('token refresh', () => {
  const refreshed = makeToken({ first_name: 'Fresh' });

  it('swaps the refresh token for a new pair', async () => {
    const bodies: unknown[] = [];
    server.use(
      mock.post(api('token/refresh'), async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json({ data: { access: refreshed, refresh: 'refresh-2' } });
      }),
    );
    startSession(makeToken(), 'refresh-1');
    await Promise.all([refreshSession(), refreshSession()]);
    expect(bodies).toEqual([{ refresh: 'refresh-1' }]);
    expect(tokenStore.access()).toBe(refreshed);
    expect(tokenStore.refresh()).toBe('refresh-2');
  });

  it('holds the Web Lock and does not refresh again when another tab already did', async () => {
    const calls = vi.fn();
    server.use(
      mock.post(api('token/refresh'), () => (calls(), HttpResponse.json({ data: { access: 'x', refresh: 'y' } }))),
    );
    const names: string[] = [];
    vi.stubGlobal('navigator', {
      ...navigator,
      onLine: true,
      locks: {
        request: async (name: string, run: () => Promise<void>) => {
          names.push(name);
          // While this tab waited, another one refreshed and stored the new pair.
          tokenStore.save(refreshed, 'refresh-2');
          return run();
        },
      },
    });
    startSession(makeToken(), 'refresh-1');
    await refreshSession();
    expect(names).toHaveLength(1);
    expect(calls).not.toHaveBeenCalled();
    expect(sessionStore.get().token).toBe(refreshed);
  });

  it('a failed refresh logs out once', async () => {
    server.use(
      mock.post(api('token/refresh'), () => HttpResponse.json({ message: 'Refresh token reused' }, { status: 401 })),
    );
    const ended = vi.fn();
    const stop = sessionStore.onEnd(ended);
    startSession(makeToken(), 'refresh-1');
    await refreshSession();
    await waitFor(() => expect(sessionStore.get().loggedIn).toBe(false));
    expect(ended).toHaveBeenCalledTimes(1);
    expect(sessionStore.endReason()).toBe('expired');
    stop();
  });

  it('the running session refreshes shortly before exp', async () => {
    server.use(
      mock.post(api('token/refresh'), () => HttpResponse.json({ data: { access: refreshed, refresh: 'refresh-2' } })),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    startSession(makeToken({ iat: nowSeconds(), exp: nowSeconds() + 600 }), 'refresh-1');
    const stop = runSession();
    await vi.advanceTimersByTimeAsync(530_000);
    expect(tokenStore.refresh()).toBe('refresh-1');
    await vi.advanceTimersByTimeAsync(15_000);
    vi.useRealTimers();
    await waitFor(() => expect(tokenStore.refresh()).toBe('refresh-2'));
    stop();
  });
});
