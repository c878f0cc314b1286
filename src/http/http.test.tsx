import { render, screen, within } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiBaseUrl } from '../config/apiBaseUrl.ts';
import { APP_SOURCE } from '../config/constants.ts';
import { sessionStore, startSession } from '../session/sessionStore.ts';
import { tokenStore } from '../session/tokenStore.ts';
import { loader } from '../shell/loader.ts';
import { ToastHost } from '../shell/ToastHost.tsx';
import { api, setupApiServer } from '../test/apiServer.ts';
import { makeToken } from '../test/tokens.ts';
import { ApiError, isApiError } from './ApiError.ts';
import { errorMessage } from './errorMessage.ts';
import { http } from './http.ts';
import { readBlobText } from './readBlobText.ts';

const server = setupApiServer();

function captureHeaders(method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string) {
  const seen: { headers?: Headers; url?: URL; body?: string } = {};
  server.use(
    mock[method](path, async ({ request }) => {
      seen.headers = request.headers;
      seen.url = new URL(request.url);
      seen.body = await request.text();
      return HttpResponse.json({ ok: true });
    }),
  );
  return seen;
}

/** The toast that shows this message, and its title. */
async function toastWith(message: string) {
  const text = await screen.findByText(message);
  return text.closest('[role="alert"]') as HTMLElement;
}

beforeEach(() => {
  render(<ToastHost />);
});

afterEach(() => {
  document.cookie = 'XSRF-TOKEN=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/';
  vi.restoreAllMocks();
});

describe('the HTTP client', () => {
  it('HTTP-01 sends every call to the configured API base with its versioned path', async () => {
    const seen = captureHeaders('get', api('vouchers'));
    await http.get('vouchers', { params: { _page: 2 } });
    expect(seen.url?.pathname).toBe('/api/v1/vouchers');
    expect(seen.url?.searchParams.get('_page')).toBe('2');
    expect(apiBaseUrl(undefined, undefined)).toBe('/api/v1/');
    expect(apiBaseUrl('https://api.example.com/api/', '/v2/')).toBe('https://api.example.com/api/v2/');
  });

  it('HTTP-02 carries Authorization: Bearer <stored token> when a token is stored, and none otherwise', async () => {
    const before = captureHeaders('get', api('anonymous'));
    await http.get('anonymous');
    expect(before.headers?.get('authorization')).toBeNull();

    const token = makeToken();
    startSession(token, 'refresh-1');
    const after = captureHeaders('get', api('vouchers'));
    await http.get('vouchers');
    expect(after.headers?.get('authorization')).toBe(`Bearer ${token}`);
  });

  it('HTTP-03 reads the XSRF-TOKEN cookie and sends it back as X-XSRF-TOKEN', async () => {
    document.cookie = 'XSRF-TOKEN=abc%20123; path=/';
    const seen = captureHeaders('post', api('vouchers'));
    await http.post('vouchers', { code: 'A' });
    expect(seen.headers?.get('x-xsrf-token')).toBe('abc 123');
  });

  it('HTTP-04 sends APP-SOURCE ADMIN for the create-subscriber POST and ADMIN_APP for every other call', async () => {
    expect(Object.values(APP_SOURCE)).toEqual(['ADMIN_APP', 'CUSTOMER', 'ADMIN']);
    const create = captureHeaders('post', api('subscribers'));
    await http.post('subscribers', { name: 'x' });
    expect(create.headers?.get('app-source')).toBe('ADMIN');

    const list = captureHeaders('get', api('subscribers'));
    await http.get('subscribers');
    expect(list.headers?.get('app-source')).toBe('ADMIN_APP');

    const topUp = captureHeaders('post', api('subscribers/5/top-ups'));
    await http.post('subscribers/5/top-ups', { points: 1 });
    expect(topUp.headers?.get('app-source')).toBe('ADMIN_APP');

    const other = captureHeaders('post', api('vouchers'));
    await http.post('vouchers', {});
    expect(other.headers?.get('app-source')).toBe('ADMIN_APP');
  });

  it('HTTP-05 offers get, post, put, patch, delete with params, delete with a body and a form-encoded post', async () => {
    const put = captureHeaders('put', api('vouchers/1'));
    await expect(http.put('vouchers/1', { code: 'B' })).resolves.toEqual({ ok: true });
    expect(JSON.parse(put.body ?? '')).toEqual({ code: 'B' });

    const patch = captureHeaders('patch', api('vouchers/1/status'));
    await http.patch('vouchers/1/status', { is_active: false });
    expect(JSON.parse(patch.body ?? '')).toEqual({ is_active: false });

    const remove = captureHeaders('delete', api('vouchers/1'));
    await http.delete('vouchers/1', { params: { force: true } });
    expect(remove.url?.searchParams.get('force')).toBe('true');

    const bulk = captureHeaders('delete', api('vouchers'));
    await http.deleteWithBody('vouchers', { ids: [1, 2] });
    expect(JSON.parse(bulk.body ?? '')).toEqual({ ids: [1, 2] });

    const form = captureHeaders('post', api('legacy/form'));
    await http.postForm('legacy/form', { email: 'a@b.co', remember: true });
    expect(form.headers?.get('content-type')).toContain('application/x-www-form-urlencoded');
    expect(form.body).toBe('email=a%40b.co&remember=true');
  });

  it('HTTP-05 posts to an absolute cloud-storage URL without the API headers, reporting upload progress', async () => {
    startSession(makeToken(), 'refresh-1');
    document.cookie = 'XSRF-TOKEN=secret; path=/';
    const seen: { headers?: Headers } = {};
    server.use(
      mock.post('https://storage.example.com/bucket', ({ request }) => {
        seen.headers = request.headers;
        return HttpResponse.json({ data: { id: 7 } });
      }),
    );
    const data = new FormData();
    data.append('file', new Blob(['a,b\n1,2']), 'trade.csv');
    const progress = vi.fn();
    await expect(
      http.postAbsolute('https://storage.example.com/bucket', data, { onUploadProgress: progress }),
    ).resolves.toEqual({ data: { id: 7 } });
    expect(seen.headers?.get('authorization')).toBeNull();
    expect(seen.headers?.get('x-xsrf-token')).toBeNull();
    expect(seen.headers?.get('app-source')).toBeNull();
  });

  it('HTTP-05 downloads a file as a Blob', async () => {
    server.use(
      mock.get(api('vouchers/export'), () => new HttpResponse('code\nA', { headers: { 'Content-Type': 'text/csv' } })),
    );
    const file = await http.download('vouchers/export', { _columns: 'code' });
    expect(file).toBeInstanceOf(Blob);
    await expect(readBlobText(file)).resolves.toBe('code\nA');
  });

  it('LOADER-04 counts a call on the loader unless a GET opts out', async () => {
    const counts: number[] = [];
    server.use(
      mock.get(api('counted'), () => {
        counts.push(loader.count());
        return HttpResponse.json({});
      }),
    );
    await http.get('counted');
    await http.get('counted', { loader: false });
    expect(counts).toEqual([1, 0]);
    expect(loader.count()).toBe(0);
  });
});

describe('the error catalogue', () => {
  it('ERR-01 shows an error toast titled "Error" for a failed call and rejects with an ApiError', async () => {
    server.use(
      mock.get(api('broken'), () =>
        HttpResponse.json({ message: 'Record is still referenced', errors: { code: 'Taken' } }, { status: 409 }),
      ),
    );
    const failure = await http.get('broken').catch((error: unknown) => error);
    expect(isApiError(failure)).toBe(true);
    expect(failure).toMatchObject({
      status: 409,
      message: 'Record is still referenced',
      fieldErrors: { code: 'Taken' },
    });
    const toast = await toastWith('Record is still referenced');
    expect(within(toast).getByText('Error')).toBeInTheDocument();
    expect(loader.count()).toBe(0);
  });

  it('ERR-02 a 401 logs the user out; a 403 never does', async () => {
    startSession(makeToken(), 'refresh-1');
    server.use(
      mock.get(api('forbidden'), () =>
        HttpResponse.json({ message: 'You do not have permission to view vouchers' }, { status: 403 }),
      ),
    );
    await expect(http.get('forbidden')).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get().loggedIn).toBe(true);

    server.use(mock.get(api('expired'), () => HttpResponse.json({ message: 'Token expired' }, { status: 401 })));
    await expect(http.get('expired')).rejects.toMatchObject({ status: 401 });
    expect(sessionStore.get().loggedIn).toBe(false);
    expect(tokenStore.access()).toBeNull();
    expect(tokenStore.refresh()).toBeNull();
  });

  it('ERR-03 shows the message of the body', async () => {
    const message = 'Code: This value is already in use.';
    server.use(
      mock.post(api('vouchers'), () =>
        HttpResponse.json({ message, errors: { code: 'This value is already in use.' } }, { status: 400 }),
      ),
    );
    await expect(http.post('vouchers', {})).rejects.toMatchObject({ message });
    expect(await toastWith(message)).toBeInTheDocument();
  });

  it('a change of one record sends its version as If-Match; its 412 is left to the screen (no toast), any other 412 toasts', async () => {
    const seen = captureHeaders('put', api('vouchers/7'));
    await http.putRecord('vouchers/7', { code: 'A' }, { ifMatch: 3 });
    expect(seen.headers?.get('if-match')).toBe('"3"');
    const deleted = captureHeaders('delete', api('vouchers/8'));
    await http.deleteRecord('vouchers/8', { ifMatch: 1 });
    expect(deleted.headers?.get('if-match')).toBe('"1"');

    const stale = 'This voucher was changed by someone else since you opened it.';
    server.use(mock.patch(api('vouchers/7/status'), () => HttpResponse.json({ message: stale }, { status: 412 })));
    await expect(http.patchRecord('vouchers/7/status', { is_active: false }, { ifMatch: 3 })).rejects.toMatchObject({
      status: 412,
      message: stale,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(stale)).toBeNull();
    await expect(http.patch('vouchers/7/status', { is_active: false })).rejects.toMatchObject({ status: 412 });
    expect(await toastWith(stale)).toBeInTheDocument();
  });

  it('one failure, one message: a status the caller shows itself raises no toast, any other status of the same call does', async () => {
    const duplicate = 'The same file was already uploaded. Confirm to import it again.';
    let status = 409;
    server.use(mock.post(api('uploads/7/complete'), () => HttpResponse.json({ message: duplicate }, { status })));
    await expect(http.post('uploads/7/complete', {}, { shownByCaller: [409] })).rejects.toMatchObject({
      status: 409,
      message: duplicate,
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByText(duplicate)).toBeNull();
    status = 500;
    await expect(http.post('uploads/7/complete', {}, { shownByCaller: [409] })).rejects.toMatchObject({ status: 500 });
    expect(await screen.findAllByText(duplicate)).toHaveLength(1);
  });

  it('ERR-04 status 0 while offline shows "No Internet Connection."', async () => {
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    server.use(mock.get(api('offline'), () => HttpResponse.error()));
    await expect(http.get('offline')).rejects.toMatchObject({ status: 0, message: 'No Internet Connection.' });
    expect(await toastWith('No Internet Connection.')).toBeInTheDocument();
  });

  it('ERR-05 status 0 while online, or an unparsable body, shows "Some error occurred. Please contact Admin."', async () => {
    server.use(mock.get(api('down'), () => HttpResponse.error()));
    await expect(http.get('down')).rejects.toMatchObject({
      status: 0,
      message: 'Some error occurred. Please contact Admin.',
    });

    server.use(
      mock.get(
        api('garbled'),
        () => new HttpResponse('<html>Bad gateway', { status: 502, headers: { 'Content-Type': 'text/html' } }),
      ),
    );
    await expect(http.get('garbled')).rejects.toMatchObject({
      status: 502,
      message: 'Some error occurred. Please contact Admin.',
    });
    expect(await screen.findAllByText('Some error occurred. Please contact Admin.')).toHaveLength(2);
    expect(errorMessage(500, '{"message": broken', true)).toBe('Some error occurred. Please contact Admin.');
  });

  it('ERR-06 a string body that parses to JSON with a message shows that message', async () => {
    expect(errorMessage(400, '{"message":"Quota exceeded"}', true)).toBe('Quota exceeded');
    server.use(
      mock.get(
        api('vouchers/export'),
        () =>
          new HttpResponse('{"message":"Export too large"}', {
            status: 413,
            headers: { 'Content-Type': 'text/plain' },
          }),
      ),
    );
    await expect(http.download('vouchers/export')).rejects.toMatchObject({ status: 413, message: 'Export too large' });
    expect(await toastWith('Export too large')).toBeInTheDocument();
  });
});
