import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { ENTITY_RESOURCES } from '../../registry.ts';
import { DEMO_USERS } from '../../seed/roles.ts';
import { startTestServer, testDatabases, type TestServer } from '../../testing/testServer.ts';
import { TRADE_CSV, nextPeriod } from '../uploads/testing/tradeCsv.ts';
import { tusRequests } from '../uploads/testing/tusRequests.ts';
import { declaredActions, isWriteRoute, type RouteAudit } from './routeAudit.ts';
import { totpCode } from '../auth/totp.ts';
import { relyingParty } from '../auth/passkeys.ts';
import { SoftwareAuthenticator } from '../../testing/softwareAuthenticator.ts';
import { publishEveryImport } from '../uploads/testing/reviewSettings.ts';
import { DEFAULT_THRESHOLDS, saveReviewThresholds } from '../uploads/reviewSettings.ts';

const databases = await testDatabases();
const BASE = '/api/v1';
type Headers = Record<string, string>;

/** A write route's request, made valid by what `setup` prepares just before it (outside the entries it is judged by). */
interface Recipe {
  setup?: () => Promise<unknown>;
  request: (prepared: any) => InjectOptions;
}

interface WriteRoute {
  key: string;
  operationId: string;
  audit: RouteAudit | undefined;
}

/**
 * A generic resource route's shape, e.g. `PATCH /:id/status`: the same handler, made by one function from the
 * resource's description, serves that shape for every resource (server/modules/resources/routes.ts). The walk sends a
 * request to each shape on the resource it has a recipe for, and holds every other resource's route of that shape to
 * the same declaration.
 */
function genericShape(key: string): string | null {
  const [method, url] = key.split(' ') as [string, string];
  for (const api of RESOURCE_APIS) {
    // `/vouchers/:id`, and the per-list routes beside them: `/views/vouchers/:id`, `/list-preferences/vouchers`.
    const match = new RegExp(
      `^${BASE}/((?:views|list-preferences)/)?${api.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(/.*)?$`,
    ).exec(url);
    if (match) return `${method} /${match[1] ?? ''}{api}${match[2] ?? ''}`;
  }
  return null;
}

/** Of the resources with records (the generic routes' own), longest first: `icici-subscribers` is not `subscribers`. */
const RESOURCE_APIS = ENTITY_RESOURCES.map((resource) => resource.api).sort((a, b) => b.length - a.length);

/** A number in letters (names take no digits): 1 -> b, 26 -> bA. */
const letters = (n: number): string =>
  (n >= 26 ? letters(Math.floor(n / 26)) : '') + String.fromCharCode(97 + (n % 26));

/** A 1 × 1 PNG as far as an upload reads it: the signature and the IHDR header (nothing decodes the pixels). */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from([0, 0, 0, 13]),
  Buffer.from('IHDR'),
  Buffer.from([0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]),
  Buffer.alloc(4),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('IEND'),
  Buffer.alloc(4),
]);

function multipart(
  name: string,
  fileName: string,
  type: string,
  content: Buffer | string,
): { payload: Buffer; headers: Headers } {
  const boundary = 'auditwalkboundary7';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe.each(databases)('every write route leaves its audit entry, on $kind', ({ kind, skip }) => {
  let server: TestServer;
  let app: FastifyInstance;
  let admin: Headers;
  const routes = new Map<string, WriteRoute>();
  /** Every password and token the walk sends: none may appear in any entry. */
  const secrets = new Set<string>(DEMO_USERS.map((user) => user.password));
  let serial = 0;

  const call = async (method: string, url: string, payload?: unknown, headers: Headers = admin) => {
    const response = await app.inject({
      method: method as 'GET',
      url: `${BASE}/${url}`,
      headers,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    return { status: response.statusCode, body: response.json() as any, headers: response.headers };
  };
  const created = async (url: string, payload: object) => {
    const answer = await call('POST', url, payload);
    if (answer.status !== 201) throw new Error(`POST ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return Number(answer.body.data.id);
  };
  const login = async (email: string, password: string) => {
    const answer = await call('POST', 'login', { email, password }, {});
    if (answer.status !== 200) throw new Error(`login ${email}: ${answer.status}`);
    secrets.add(answer.body.data.access).add(answer.body.data.refresh);
    return answer.body.data as { access: string; refresh: string };
  };
  /** The token of the newest e-mailed link of this kind to `email`. */
  const emailedToken = async (email: string, screen: 'reset-password' | 'verify-email') => {
    const [mail] = await server.db.query<{ body: string }>(
      `SELECT body FROM outbox WHERE recipient = $1 AND body LIKE $2 ORDER BY id DESC LIMIT 1`,
      [email.toLowerCase(), `%/auth/${screen}?token=%`],
    );
    const token = mail && new URL(/https?:\/\/\S+token=\S+/.exec(mail.body)![0]).searchParams.get('token');
    if (!token) throw new Error(`no ${screen} e-mail to ${email}`);
    secrets.add(token);
    return token;
  };
  /** A new user of a demo role, created by the administrator; not verified unless asked. */
  const newUser = async (verified = false, roleName = 'Read Only') => {
    serial += 1;
    const email = `walk.${serial}.${kind}@example.com`;
    const password = `Walk@${serial}2468`;
    secrets.add(password);
    const [role] = await server.db.query<{ id: number }>('SELECT id FROM roles WHERE name = $1', [roleName]);
    const id = await created('users', {
      first_name: 'Walk',
      last_name: `User${letters(serial)}`,
      email,
      mobile: `98765${String(serial).padStart(5, '0')}`,
      role_id: role!.id,
      password,
      confirm_password: password,
    });
    // A link was sent when the user was made; "send it again" must not be throttled for that one.
    await server.db.query(`UPDATE email_links SET created_at = created_at - interval '1 hour' WHERE user_id = $1`, [
      id,
    ]);
    if (verified) await server.db.query('UPDATE users SET email_verified_at = now() WHERE id = $1', [id]);
    return { id, email, password };
  };
  /** A verified user with two-factor sign-in on, signed in before it was. */
  const enrolledUser = async () => {
    const user = await newUser(true);
    const tokens = await login(user.email, user.password);
    const bearer = { authorization: `Bearer ${tokens.access}` };
    const secret = (await call('POST', 'user/two-factor/totp', {}, bearer)).body.data.secret as string;
    const confirmed = await call('POST', 'user/two-factor/totp/confirm', { code: totpCode(secret) }, bearer);
    const recovery = confirmed.body.data.recovery_codes as string[];
    for (const value of [secret, ...recovery]) secrets.add(value);
    return { ...user, bearer, recovery };
  };
  /** A verified user with a passkey (a software authenticator, as a browser's would answer), signed in. */
  const passkeyUser = async () => {
    const user = await newUser(true);
    const bearer = { authorization: `Bearer ${(await login(user.email, user.password)).access}` };
    const authenticator = new SoftwareAuthenticator(relyingParty(app).origin);
    const options = (await call('POST', 'user/passkeys/registration-options', {}, bearer)).body.data;
    const added = await call(
      'POST',
      'user/passkeys',
      { name: 'Laptop', response: authenticator.register(options) },
      bearer,
    );
    if (added.status !== 200) throw new Error(`passkey for ${user.email}: ${added.status}`);
    return { ...user, bearer, authenticator, passkeyId: Number(added.body.data.id) };
  };
  let countryId = 0;
  const newSubscriber = async () => {
    serial += 1;
    return created('subscribers', {
      name: `Walk Subscriber ${letters(serial)}`,
      email: `walk.subscriber.${serial}@example.com`,
      mobile: `98700${String(serial).padStart(5, '0')}`,
      country_id: countryId,
    });
  };

  /** A new lookup type, the resource the walk sends each generic route's request to, and its version. */
  const newLookupType = async () => {
    serial += 1;
    const name = `Walk type ${letters(serial)}`;
    return { id: await created('lookup-types', { code: `walk_${letters(serial)}`, name }), name, etag: '"1"' };
  };
  const deletedLookupType = async () => {
    const type = await newLookupType();
    expect(
      (await call('DELETE', `lookup-types/${type.id}`, undefined, { ...admin, 'if-match': type.etag })).status,
    ).toBe(200);
    return type;
  };
  const byName = (name: string) => `q=${encodeURIComponent(name)}`;
  /** A trade-data upload announced and waiting for its file. */
  const announcedUpload = async () =>
    (
      await call('POST', 'uploads', {
        country_id: countryId,
        trade_direction: 'export',
        period: nextPeriod(),
        file_name: 'walk.csv',
        size: TRADE_CSV.length,
      })
    ).body.data.upload.id as number;
  /** An upload imported and held for review: the walk otherwise publishes every import (its file is dated in another month). */
  const heldUpload = async () => {
    // Imports started by the recipes before it end first, published as the walk sets it.
    await app.uploads.idle();
    await saveReviewThresholds(server.db, { ...DEFAULT_THRESHOLDS, hold: true }, null);
    const announced = await call('POST', 'uploads', {
      country_id: countryId,
      trade_direction: 'export',
      period: nextPeriod(),
      file_name: 'walk.csv',
      size: TRADE_CSV.length,
    });
    await tusRequests(app).sendFile(announced.body.data, Buffer.from(TRADE_CSV));
    expect((await call('POST', announced.body.data.complete_path, {})).status).toBe(200);
    await app.uploads.idle();
    await publishEveryImport(server.db);
    return announced.body.data.upload.id as number;
  };
  const VOUCHER_CSV =
    'Code,Discount type,Discount value,Valid from,Valid to\nWALKIMPORT1,percent,5,2026-01-01,2026-02-01\n';
  const uploadedVoucherFile = async () => {
    const file = multipart('file', 'walk.csv', 'text/csv', VOUCHER_CSV);
    const uploaded = await app.inject({
      method: 'POST',
      url: `${BASE}/vouchers/import`,
      payload: file.payload,
      headers: { ...admin, ...file.headers },
    });
    const { id, mapping } = uploaded.json().data;
    return { id, mapping };
  };

  const apiTokenBody = () => ({
    name: `Walk token ${letters((serial += 1))}`,
    permissions: { VOUCHER: ['view'] },
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const webhookBody = () => ({
    name: `Walk webhook ${letters((serial += 1))}`,
    url: 'http://127.0.0.1:9/walk',
    events: ['vouchers.updated'],
  });
  const webhook = async () => (await call('POST', 'webhooks', webhookBody())).body.data.id;
  const RECIPES: Record<string, Recipe> = {
    createLookupType: {
      request: () => ({
        method: 'POST',
        url: 'lookup-types',
        payload: { code: `walk_${letters((serial += 1))}`, name: 'Walk created' },
      }),
    },
    updateLookupType: {
      setup: newLookupType,
      request: ({ id, etag }) => ({
        method: 'PUT',
        url: `lookup-types/${id}`,
        payload: { code: `walk_${letters((serial += 1))}`, name: 'Walk renamed' },
        headers: { 'if-match': etag },
      }),
    },
    patchLookupType: {
      setup: newLookupType,
      request: ({ id, etag }) => ({
        method: 'PATCH',
        url: `lookup-types/${id}`,
        payload: { name: 'Walk patched' },
        headers: { 'if-match': etag, 'content-type': 'application/merge-patch+json' },
      }),
    },
    setLookupTypeStatus: {
      setup: newLookupType,
      request: ({ id, etag }) => ({
        method: 'PATCH',
        url: `lookup-types/${id}/status`,
        payload: { is_active: false },
        headers: { 'if-match': etag },
      }),
    },
    bulkSetLookupTypesStatus: {
      setup: newLookupType,
      request: ({ id }) => ({ method: 'PATCH', url: 'lookup-types/status', payload: { ids: [id], is_active: false } }),
    },
    deleteLookupType: {
      setup: newLookupType,
      request: ({ id, etag }) => ({ method: 'DELETE', url: `lookup-types/${id}`, headers: { 'if-match': etag } }),
    },
    bulkDeleteLookupTypes: {
      setup: newLookupType,
      request: ({ id }) => ({ method: 'DELETE', url: 'lookup-types', payload: { ids: [id] } }),
    },
    bulkSetLookupTypesStatusByFilter: {
      setup: newLookupType,
      request: ({ name }) => ({
        method: 'POST',
        url: `lookup-types/bulk/status?${byName(name)}`,
        payload: { is_active: false, expected_count: 1 },
      }),
    },
    bulkDeleteLookupTypesByFilter: {
      setup: newLookupType,
      request: ({ name }) => ({
        method: 'POST',
        url: `lookup-types/bulk/delete?${byName(name)}`,
        payload: { expected_count: 1 },
      }),
    },
    bulkSetVoucherField: {
      setup: async () => {
        serial += 1;
        const code = `WALKSET${serial}`;
        await created('vouchers', {
          code,
          discount_type: 'percent',
          discount_value: 5,
          valid_from: '2026-01-01',
          valid_to: '2026-02-01',
        });
        return code;
      },
      request: (code) => ({
        method: 'POST',
        url: `vouchers/bulk/set?${byName(code)}`,
        payload: { field: 'usage_limit', value: 7, expected_count: 1 },
      }),
    },
    restoreLookupTypeVersion: {
      setup: async () => {
        const type = await newLookupType();
        expect(
          (
            await call(
              'PUT',
              `lookup-types/${type.id}`,
              { code: `walk_${letters((serial += 1))}`, name: 'Walk changed' },
              { ...admin, 'if-match': type.etag },
            )
          ).status,
        ).toBe(200);
        const history = await call('GET', `lookup-types/${type.id}/history`);
        return { id: type.id, entry: history.body.data.at(-1).id };
      },
      request: ({ id, entry }) => ({
        method: 'POST',
        url: `lookup-types/${id}/history/${entry}/restore`,
        payload: {},
        headers: { 'if-match': '"2"' },
      }),
    },
    restoreLookupType: {
      setup: deletedLookupType,
      request: ({ id }) => ({ method: 'POST', url: `lookup-types/${id}/restore`, payload: {} }),
    },
    purgeLookupType: {
      setup: deletedLookupType,
      request: ({ id }) => ({ method: 'DELETE', url: `lookup-types/${id}/permanent` }),
    },
    verifyCompany: {
      setup: () =>
        created('companies', {
          name: `Walk Company ${letters((serial += 1))}`,
          iec: `IEC${String(serial).padStart(7, '0')}`,
          city: 'Pune',
          state: 'MH',
          country_id: countryId,
        }),
      request: (id) => ({ method: 'POST', url: `companies/${id}/verify`, payload: {} }),
    },
    applyVoucherImport: {
      setup: () => uploadedVoucherFile(),
      request: ({ id, mapping }) => ({ method: 'POST', url: `vouchers/import/${id}/apply`, payload: { mapping } }),
    },
    dryRunVoucherImport: {
      setup: () => uploadedVoucherFile(),
      request: ({ id, mapping }) => ({ method: 'POST', url: `vouchers/import/${id}/dry-run`, payload: { mapping } }),
    },
    saveLookupTypeView: {
      request: () => ({
        method: 'POST',
        url: 'views/lookup-types',
        payload: { name: `Walk view ${letters((serial += 1))}`, query: { q: 'walk' } },
      }),
    },
    updateLookupTypeView: {
      setup: async () =>
        (
          await call('POST', 'views/lookup-types', {
            name: `Walk view ${letters((serial += 1))}`,
            query: { q: 'walk' },
          })
        ).body.data.id,
      request: (id) => ({
        method: 'PUT',
        url: `views/lookup-types/${id}`,
        payload: { name: `Walk view ${letters((serial += 1))}`, query: { q: 'walked' } },
        headers: { 'if-match': '"1"' },
      }),
    },
    deleteLookupTypeView: {
      setup: async () =>
        (
          await call('POST', 'views/lookup-types', {
            name: `Walk view ${letters((serial += 1))}`,
            query: { q: 'walk' },
          })
        ).body.data.id,
      request: (id) => ({ method: 'DELETE', url: `views/lookup-types/${id}`, headers: { 'if-match': '"1"' } }),
    },
    createApiToken: {
      request: () => ({ method: 'POST', url: 'api-tokens', payload: apiTokenBody() }),
    },
    revokeApiToken: {
      setup: async () => (await call('POST', 'api-tokens', apiTokenBody())).body.data.id,
      request: (id) => ({ method: 'DELETE', url: `api-tokens/${id}` }),
    },
    createWebhook: {
      request: () => ({ method: 'POST', url: 'webhooks', payload: webhookBody() }),
    },
    updateWebhook: {
      setup: webhook,
      request: (id) => ({
        method: 'PUT',
        url: `webhooks/${id}`,
        headers: { 'if-match': '"1"' },
        payload: webhookBody(),
      }),
    },
    deleteWebhook: {
      setup: webhook,
      request: (id) => ({ method: 'DELETE', url: `webhooks/${id}` }),
    },
    rotateWebhookSecret: {
      setup: webhook,
      request: (id) => ({ method: 'POST', url: `webhooks/${id}/secret` }),
    },
    pingWebhook: {
      setup: webhook,
      request: (id) => ({ method: 'POST', url: `webhooks/${id}/ping` }),
    },
    resendWebhookDelivery: {
      setup: async () => {
        const id = await webhook();
        const ping = await call('POST', `webhooks/${id}/ping`);
        return { id, delivery: ping.body.data.id };
      },
      request: ({ id, delivery }) => ({ method: 'POST', url: `webhooks/${id}/deliveries/${delivery}/resend` }),
    },
    setLookupTypeListPreferences: {
      request: () => ({ method: 'PUT', url: 'list-preferences/lookup-types', payload: { columns: ['name', 'code'] } }),
    },
    login: {
      request: () => ({
        method: 'POST',
        url: 'login',
        payload: { email: 'viewer@example.com', password: 'Viewer@12345' },
      }),
    },
    resendVerificationLink: {
      setup: () => newUser(),
      request: ({ email, password }) => ({ method: 'POST', url: 'email-verify/resend', payload: { email, password } }),
    },
    logout: {
      setup: () => login('viewer@example.com', 'Viewer@12345'),
      request: ({ access, refresh }) => ({
        method: 'POST',
        url: 'logout',
        payload: { refresh },
        headers: { authorization: `Bearer ${access}` },
      }),
    },
    endOwnSession: {
      setup: async () => {
        const other = await login('viewer@example.com', 'Viewer@12345');
        const mine = await login('viewer@example.com', 'Viewer@12345');
        const sessions = await call('GET', 'user/sessions', undefined, { authorization: `Bearer ${mine.access}` });
        const ended = (sessions.body.data as Array<{ id: string; current: boolean }>).find((s) => !s.current)!;
        return { access: mine.access, id: ended.id, other };
      },
      request: ({ access, id }) => ({
        method: 'DELETE',
        url: `user/sessions/${id}`,
        headers: { authorization: `Bearer ${access}` },
      }),
    },
    endOtherOwnSessions: {
      setup: async () => {
        await login('viewer@example.com', 'Viewer@12345');
        return login('viewer@example.com', 'Viewer@12345');
      },
      request: ({ access }) => ({
        method: 'DELETE',
        url: 'user/sessions',
        headers: { authorization: `Bearer ${access}` },
      }),
    },
    endUserSession: {
      setup: async () => {
        const user = await newUser(true);
        await login(user.email, user.password);
        const sessions = await call('GET', `users/${user.id}/sessions`);
        return { id: user.id, sessionId: (sessions.body.data as Array<{ id: string }>)[0]!.id };
      },
      request: ({ id, sessionId }) => ({ method: 'DELETE', url: `users/${id}/sessions/${sessionId}` }),
    },
    confirmTotpEnrolment: {
      setup: async () => {
        const user = await newUser(true);
        const bearer = { authorization: `Bearer ${(await login(user.email, user.password)).access}` };
        const secret = (await call('POST', 'user/two-factor/totp', {}, bearer)).body.data.secret as string;
        secrets.add(secret);
        return { bearer, secret };
      },
      request: ({ bearer, secret }) => ({
        method: 'POST',
        url: 'user/two-factor/totp/confirm',
        payload: { code: totpCode(secret) },
        headers: bearer,
      }),
    },
    loginSecondFactor: {
      setup: async () => {
        const user = await enrolledUser();
        const token = (await call('POST', 'login', { email: user.email, password: user.password }, {})).body.data
          .mfa_token as string;
        secrets.add(token);
        return { token, code: user.recovery[0] };
      },
      request: ({ token, code }) => ({
        method: 'POST',
        url: 'login/two-factor',
        payload: { mfa_token: token, code },
        noAuth: true,
      }),
    },
    loginWithPasskey: {
      setup: async () => {
        const { authenticator } = await passkeyUser();
        return authenticator.assert((await call('POST', 'login/passkey-options', {}, {})).body.data);
      },
      request: (response) => ({ method: 'POST', url: 'login/passkey', payload: { response }, noAuth: true }),
    },
    loginSecondFactorPasskey: {
      setup: async () => {
        const user = await passkeyUser();
        const token = (await call('POST', 'login', { email: user.email, password: user.password }, {})).body.data
          .mfa_token as string;
        secrets.add(token);
        const options = (await call('POST', 'login/two-factor/passkey-options', { mfa_token: token }, {})).body.data;
        return { token, response: user.authenticator.assert(options) };
      },
      request: ({ token, response }) => ({
        method: 'POST',
        url: 'login/two-factor/passkey',
        payload: { mfa_token: token, response },
        noAuth: true,
      }),
    },
    addPasskey: {
      setup: async () => {
        const user = await newUser(true);
        const bearer = { authorization: `Bearer ${(await login(user.email, user.password)).access}` };
        const options = (await call('POST', 'user/passkeys/registration-options', {}, bearer)).body.data;
        return { bearer, response: new SoftwareAuthenticator(relyingParty(app).origin).register(options) };
      },
      request: ({ bearer, response }) => ({
        method: 'POST',
        url: 'user/passkeys',
        payload: { name: 'Work laptop', response },
        headers: bearer,
      }),
    },
    renamePasskey: {
      setup: () => passkeyUser(),
      request: ({ bearer, passkeyId }) => ({
        method: 'PATCH',
        url: `user/passkeys/${passkeyId}`,
        payload: { name: 'Home laptop' },
        headers: bearer,
      }),
    },
    removePasskey: {
      setup: () => passkeyUser(),
      request: ({ bearer, passkeyId }) => ({ method: 'DELETE', url: `user/passkeys/${passkeyId}`, headers: bearer }),
    },
    turnOffTwoFactor: {
      setup: () => enrolledUser(),
      request: ({ bearer, recovery }) => ({
        method: 'DELETE',
        url: 'user/two-factor',
        payload: { code: recovery[0] },
        headers: bearer,
      }),
    },
    renewRecoveryCodes: {
      setup: () => enrolledUser(),
      request: ({ bearer, recovery }) => ({
        method: 'POST',
        url: 'user/two-factor/recovery-codes',
        payload: { code: recovery[0] },
        headers: bearer,
      }),
    },
    resetUserTwoFactor: {
      setup: () => enrolledUser(),
      request: ({ id }) => ({ method: 'DELETE', url: `users/${id}/two-factor` }),
    },
    sendPasswordResetLink: {
      request: () => ({ method: 'POST', url: 'forget_password', payload: { email: 'operator@example.com' } }),
    },
    resetPassword: {
      setup: async () => {
        const user = await newUser(true);
        expect((await call('POST', 'forget_password', { email: user.email }, {})).status).toBe(200);
        return emailedToken(user.email, 'reset-password');
      },
      request: (token) => {
        secrets.add('Reset@97531');
        return {
          method: 'POST',
          url: 'reset_password',
          payload: { token, password: 'Reset@97531', confirm_password: 'Reset@97531' },
        };
      },
    },
    verifyEmail: {
      setup: async () => emailedToken((await newUser()).email, 'verify-email'),
      request: (token) => ({ method: 'POST', url: 'email-verify', payload: { token } }),
    },
    replaceRolePermissions: {
      setup: async () => {
        const [role] = await server.db.query<{ id: number }>(`SELECT id FROM roles WHERE name = 'Read Only'`);
        const read = await call('GET', `roles/${role!.id}/permissions`);
        const permissions = read.body.data as Record<string, string[]>;
        const [module] = Object.keys(permissions);
        return {
          id: role!.id,
          etag: String(read.headers.etag),
          permissions: { ...permissions, [module!]: permissions[module!]!.slice(1) },
        };
      },
      request: ({ id, etag, permissions }) => ({
        method: 'PUT',
        url: `roles/${id}/permissions`,
        payload: { permissions },
        headers: { 'if-match': etag },
      }),
    },
    resendUserVerificationLink: {
      setup: () => newUser(),
      request: ({ id }) => ({ method: 'POST', url: `users/${id}/email-verification`, payload: {} }),
    },
    updateOwnProfile: {
      request: () => ({
        method: 'PUT',
        url: 'user/profile',
        payload: { first_name: 'Asha', last_name: `Admin${letters((serial += 1))}`, mobile: '9876543210' },
      }),
    },
    changeOwnPassword: {
      setup: async () => {
        const user = await newUser(true, 'Data Operator');
        return { ...user, tokens: await login(user.email, user.password) };
      },
      request: ({ password, tokens }) => {
        secrets.add('Changed@13579');
        return {
          method: 'POST',
          url: 'user/change-password',
          payload: { current_password: password, password: 'Changed@13579', confirm_password: 'Changed@13579' },
          headers: { authorization: `Bearer ${tokens.access}` },
        };
      },
    },
    markNotificationRead: {
      setup: async () =>
        (
          await server.db.query<{ id: number }>(
            `INSERT INTO notifications (user_id, message) VALUES ($1, 'walk') RETURNING id`,
            [server.userIds.get('admin@example.com')],
          )
        )[0]!.id,
      request: (id) => ({ method: 'POST', url: 'notification', payload: { id } }),
    },
    markAllNotificationsRead: {
      request: () => ({ method: 'POST', url: 'notification/mark-all-as-read', payload: {} }),
    },
    addSubscription: {
      setup: async () => {
        serial += 1;
        const plan = await created('plans', {
          name: `Walk plan ${letters(serial)}`,
          code: `WALK${serial}`,
          price: 999,
          validity_days: 30,
          points: 100,
          max_users: 1,
        });
        return { subscriber: await newSubscriber(), plan };
      },
      request: ({ subscriber, plan }) => ({
        method: 'POST',
        url: `subscribers/${subscriber}/subscriptions`,
        payload: { plan_id: plan, starts_on: '2026-01-01', amount_paid: 999 },
      }),
    },
    cancelSubscription: {
      setup: async () => {
        serial += 1;
        const plan = await created('plans', {
          name: `Walk plan ${letters(serial)}`,
          code: `WALK${serial}`,
          price: 999,
          validity_days: 30,
          points: 100,
          max_users: 1,
        });
        const subscriber = await newSubscriber();
        const sold = await call('POST', `subscribers/${subscriber}/subscriptions`, {
          plan_id: plan,
          starts_on: '2099-01-01',
          amount_paid: 0,
        });
        return { subscriber, subscription: (sold.body.data.subscription as { id: number }).id };
      },
      request: ({ subscriber, subscription }) => ({
        method: 'POST',
        url: `subscribers/${subscriber}/subscriptions/${subscription}/cancel`,
      }),
    },
    addTopUp: {
      setup: () => newSubscriber(),
      request: (id) => ({
        method: 'POST',
        url: `subscribers/${id}/top-ups`,
        payload: { points: 10, amount: 100, idempotency_key: `walk-top-up-${id}` },
      }),
    },
    startUpload: {
      request: () => ({
        method: 'POST',
        url: 'uploads',
        payload: {
          country_id: countryId,
          trade_direction: 'export',
          period: nextPeriod(),
          file_name: 'walk.csv',
          size: TRADE_CSV.length,
        },
      }),
    },
    completeUpload: {
      setup: async () => {
        const announced = await call('POST', 'uploads', {
          country_id: countryId,
          trade_direction: 'export',
          period: nextPeriod(),
          file_name: 'walk.csv',
          size: TRADE_CSV.length,
        });
        await tusRequests(app).sendFile(announced.body.data, Buffer.from(TRADE_CSV));
        return announced.body.data.complete_path;
      },
      request: (path: string) => ({ method: 'POST', url: path, payload: {} }),
    },
    cancelUpload: {
      setup: () => announcedUpload(),
      request: (id) => ({ method: 'POST', url: `uploads/${id}/cancel`, payload: {} }),
    },
    replacePublishedUpload: {
      setup: () => announcedUpload(),
      request: (id) => ({ method: 'POST', url: `uploads/${id}/replace`, payload: {} }),
    },
    setUploadReviewSettings: {
      request: () => ({ method: 'PUT', url: 'uploads/review-settings', payload: { unit_value_min_rows: 25 } }),
    },
    publishUpload: {
      setup: () => heldUpload(),
      request: (id) => ({ method: 'POST', url: `uploads/${id}/publish`, payload: { reason: 'Checked by hand.' } }),
    },
    rejectUpload: {
      setup: () => heldUpload(),
      request: (id) => ({ method: 'POST', url: `uploads/${id}/reject`, payload: { reason: 'The wrong month.' } }),
    },
    uploadBannerImage: {
      request: () => ({ method: 'POST', url: 'banners/image', ...multipart('file', 'walk.png', 'image/png', PNG) }),
    },
    refreshTrendingProducts: { request: () => ({ method: 'POST', url: 'sync-trending-data/refresh' }) },
  };

  beforeAll(async () => {
    if (skip) return;
    server = await startTestServer(kind);
    await publishEveryImport(server.db);
    const onRoute = (route: RouteOptions) => {
      if (!route.url.startsWith(`${BASE}/`) || !isWriteRoute(route)) return;
      for (const method of [route.method].flat()) {
        const key = `${method} ${route.url}`;
        routes.set(key, { key, operationId: String(route.schema?.operationId ?? key), audit: route.config?.audit });
      }
    };
    app = await buildApp({ config: server.config, db: server.db, storage: server.storage, onRoute });
    await app.ready();
    admin = { authorization: `Bearer ${(await login('admin@example.com', 'Admin@12345')).access}` };
    countryId = await created('countries', {
      name: 'India',
      iso2: 'IN',
      iso3: 'IND',
      region: 'asia',
      currency_code: 'INR',
    });
  });
  afterAll(async () => {
    await app?.close();
    await server?.close();
  });

  const newestEntryId = async () =>
    Number((await server.db.query<{ id: number | null }>('SELECT max(id) AS id FROM audit_log'))[0]?.id ?? 0);

  it.skipIf(skip)(
    'each write operation of the OpenAPI document writes an entry of an action it declares; none is left undeclared',
    async () => {
      const document = (await app.inject({ method: 'GET', url: `${BASE}/openapi.json` })).json() as {
        paths: Record<string, Record<string, { operationId: string }>>;
      };
      const documented = Object.entries(document.paths).flatMap(([path, item]) =>
        ['post', 'put', 'patch', 'delete']
          .filter((method) => item[method])
          .map((method) => `${method.toUpperCase()} ${BASE}${path.replace(/\{(\w+)\}/g, ':$1')}`),
      );
      expect(documented.length).toBeGreaterThan(20);
      const problems: string[] = [];
      /** The declaration of each generic shape walked, e.g. `PATCH /:id/status` -> `{"action":"status"}`. */
      const walkedShapes = new Map<string, string>();
      const alike: WriteRoute[] = [];
      for (const key of documented) {
        const route = routes.get(key);
        if (!route) {
          problems.push(`${key}: documented but not registered`);
          continue;
        }
        if (route.audit === undefined) {
          problems.push(`${key}: declares no config.audit`);
          continue;
        }
        if ('none' in route.audit) continue;
        const recipe = RECIPES[route.operationId];
        if (!recipe) {
          if (genericShape(key)) alike.push(route);
          else
            problems.push(
              `${key} (${route.operationId}): declares ${JSON.stringify(route.audit)} but the walk has no request for it`,
            );
          continue;
        }
        const prepared = await recipe.setup?.();
        const { noAuth, url, headers, ...options } = recipe.request(prepared) as InjectOptions & {
          noAuth?: boolean;
          url: string;
        };
        const before = await newestEntryId();
        const response = await app.inject({
          ...options,
          url: `${BASE}/${url}`,
          headers: { ...(noAuth ? {} : admin), ...(headers as Headers) },
        });
        if (response.statusCode >= 300) {
          problems.push(`${key}: ${response.statusCode} ${response.body.slice(0, 300)}`);
          continue;
        }
        const entries = await server.db.query<{ action: string }>('SELECT action FROM audit_log WHERE id > $1', [
          before,
        ]);
        const declared = declaredActions(route.audit);
        if (!entries.some((entry) => (declared as string[]).includes(entry.action)))
          problems.push(
            `${key}: declares ${declared.join(', ')} but wrote ${entries.map((entry) => entry.action).join(', ') || 'no entry'}`,
          );
        const shape = genericShape(key);
        if (shape) walkedShapes.set(shape, JSON.stringify(route.audit));
      }
      for (const route of alike) {
        const shape = genericShape(route.key)!;
        const walked = walkedShapes.get(shape);
        if (walked === undefined)
          problems.push(`${route.key} (${route.operationId}): no resource's ${shape} was walked`);
        else if (walked !== JSON.stringify(route.audit))
          problems.push(`${route.key}: declares ${JSON.stringify(route.audit)}, the walked ${shape} ${walked}`);
      }
      expect(problems).toEqual([]);
      expect(walkedShapes.size).toBeGreaterThan(10);
    },
  );

  it.skipIf(skip)("an accepted upload's import writes its outcome as the uploader", async () => {
    await expect
      .poll(
        async () =>
          (
            await server.db.query(
              `SELECT 1 FROM audit_log WHERE action = 'import' AND details->>'status' = 'published'`,
            )
          ).length,
        { timeout: 15_000 },
      )
      .toBeGreaterThan(0);
    const [entry] = await server.db.query<{ user_id: number; module: string }>(
      `SELECT user_id, module FROM audit_log WHERE action = 'import' ORDER BY id DESC LIMIT 1`,
    );
    expect(entry).toEqual({ user_id: server.userIds.get('admin@example.com'), module: 'DATA_UPLOAD_LOGS' });
  });

  it.skipIf(skip)('a failed sign-in is recorded with the address tried, and the account when it exists', async () => {
    const before = await newestEntryId();
    expect((await call('POST', 'login', { email: 'Viewer@Example.com', password: 'Wrong@12345' }, {})).status).toBe(
      401,
    );
    expect((await call('POST', 'login', { email: 'nobody@example.com', password: 'Wrong@12345' }, {})).status).toBe(
      401,
    );
    secrets.add('Wrong@12345');
    const entries = await server.db.query(
      'SELECT user_id, record_id, action, details FROM audit_log WHERE id > $1 ORDER BY id',
      [before],
    );
    expect(entries).toEqual([
      {
        user_id: null,
        record_id: server.userIds.get('viewer@example.com'),
        action: 'login_failed',
        details: { email: 'viewer@example.com', reason: 'wrong_credentials' },
      },
      {
        user_id: null,
        record_id: null,
        action: 'login_failed',
        details: { email: 'nobody@example.com', reason: 'wrong_credentials' },
      },
    ]);
  });

  it.skipIf(skip)('no entry holds a password, a token or a password hash: only that it changed', async () => {
    const hashes = (
      await server.db.query<{ password_hash: string }>(
        'SELECT password_hash FROM users WHERE password_hash IS NOT NULL',
      )
    ).map((row) => row.password_hash);
    const entries = await server.db.query<{ id: number; text: string }>(
      `SELECT id, concat_ws(' ', changes::text, snapshot::text, details::text) AS text FROM audit_log`,
    );
    expect(entries.length).toBeGreaterThan(20);
    const leaks = entries.flatMap((entry) =>
      [...secrets, ...hashes]
        .filter((secret) => entry.text.includes(secret))
        .map((secret) => `entry ${entry.id} holds ${secret.slice(0, 6)}...`),
    );
    expect(leaks).toEqual([]);
    const [changed] = await server.db.query(`SELECT changes FROM audit_log WHERE action = 'password_change' LIMIT 1`);
    expect(changed).toEqual({ changes: { password_hash: { changed: true } } });
  });

  it.skipIf(skip)(
    'a change whose entry cannot be written does not happen: entry and change roll back together',
    async () => {
      await server.db.exec(`
      CREATE FUNCTION refuse_audit_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit log refused'; END $$;
      CREATE TRIGGER refuse_audit_entry BEFORE INSERT ON audit_log FOR EACH ROW WHEN (NEW.action IN ('profile', 'top_up')) EXECUTE FUNCTION refuse_audit_entry();`);
      try {
        const adminId = server.userIds.get('admin@example.com')!;
        const [before] = await server.db.query('SELECT first_name, last_name, mobile FROM users WHERE id = $1', [
          adminId,
        ]);
        expect(
          (await call('PUT', 'user/profile', { first_name: 'Rolled', last_name: 'Back', mobile: '9123456780' })).status,
        ).toBe(500);
        expect(
          (await server.db.query('SELECT first_name, last_name, mobile FROM users WHERE id = $1', [adminId]))[0],
        ).toEqual(before);
        const subscriber = await newSubscriber();
        expect(
          (
            await call('POST', `subscribers/${subscriber}/top-ups`, {
              points: 5,
              amount: 50,
              idempotency_key: 'rolled-back',
            })
          ).status,
        ).toBe(500);
        expect(await server.db.query('SELECT id FROM points_ledger WHERE subscriber_id = $1', [subscriber])).toEqual(
          [],
        );
      } finally {
        await server.db.exec('DROP TRIGGER refuse_audit_entry ON audit_log; DROP FUNCTION refuse_audit_entry();');
      }
    },
  );

  it.skipIf(skip)('parallel writes are each recorded once', async () => {
    const subscriber = await newSubscriber();
    const topUps = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        call('POST', `subscribers/${subscriber}/top-ups`, {
          points: 1,
          amount: 1,
          idempotency_key: `parallel-${index}`,
        }),
      ),
    );
    expect(topUps.map((answer) => answer.status)).toEqual(Array(8).fill(201));
    const entries = await server.db.query<{ ledger: string }>(
      `SELECT details->>'ledger_entry_id' AS ledger FROM audit_log WHERE action = 'top_up' AND record_id = $1`,
      [subscriber],
    );
    expect(new Set(entries.map((entry) => entry.ledger)).size).toBe(8);
    expect(entries).toHaveLength(8);
    const repeated = await call('POST', `subscribers/${subscriber}/top-ups`, {
      points: 1,
      amount: 1,
      idempotency_key: 'parallel-0',
    });
    expect(repeated.status).toBe(200);
    expect(
      await server.db.query(`SELECT 1 FROM audit_log WHERE action = 'top_up' AND record_id = $1`, [subscriber]),
    ).toHaveLength(8);
  });
});
