import {
  BANNER_IMAGE_MAX_BYTES,
  BANNER_IMAGE_NAME,
  TOP_UP_SERVER_ONLY,
  checkLinkBody,
  emailVerifyBody,
  executiveSubscribersQuery,
  forgetPasswordBody,
  loginBody,
  logoutBody,
  markAllReadBody,
  notificationQuery,
  notificationReadBody,
  permissionSetSchema,
  refreshBody,
  reportSummaryQuery,
  resetPasswordBody,
  rolePermissionsBody,
  tradeExportQuery,
  tradeQuery,
  uploadFileQuery,
} from '../../contract/endpoints.ts';
import { MODULE } from '../../contract/modules.ts';
import { actionBody, idParams, type JsonSchema } from '../../contract/resources.ts';
import type { ProjectModel, ResourceModel } from '../model.ts';
import { csvAnswer, dataAnswer, json, jsonBody, listAnswer, messageAnswer, ref, type OperationSpec } from './openapiOperation.ts';
import { isEntityResource } from './openapiResources.ts';

const string = { type: 'string' } as const;
const nullableString = { type: ['string', 'null'] } as const;
const integer = { type: 'integer' } as const;
const number = { type: 'number' } as const;
const dateTime = { type: 'string', format: 'date-time' } as const;

function object(properties: Record<string, unknown>, required: string[] = Object.keys(properties)) {
  return { type: 'object', required, properties };
}

/** Component schemas the fixed endpoints share. */
export function fixedSchemas(model: ProjectModel): Record<string, unknown> {
  return {
    TokenPair: object({ access: { type: 'string', description: 'JWT (HS256) with sub, role, exp, iat, first_name, last_name, default_url.' }, refresh: string }),
    PermissionSet: { ...permissionSetSchema(modulesOf(model)), description: 'Module → the actions granted.' },
    Notification: object({ id: integer, message: { type: 'string', description: 'HTML; the console sanitises it.' }, created_at: dateTime, is_read: { type: 'boolean' } }),
    LedgerEntry: object(
      {
        id: integer,
        kind: { type: 'string', enum: ['subscription', 'top_up', 'consumption'] },
        points: integer,
        amount: number,
        balance_after: integer,
        note: nullableString,
        created_at: dateTime,
        subscriber_id: integer,
        idempotency_key: nullableString,
        subscription_id: { type: ['integer', 'null'] },
        created_by: { type: ['integer', 'null'] },
      },
      ['id', 'kind', 'points', 'amount', 'balance_after', 'note', 'created_at'],
    ),
  };
}

/**
 * The endpoints the server registers beside the generic ones (server/auth, permissions, profile, notifications,
 * subscribers, uploads, banners, reports routes and the document itself), with the same conditions on the manifest.
 * Request schemas come from contract/, which the routes validate with.
 */
export function fixedOperations(model: ProjectModel): OperationSpec[] {
  const resources = model.areas.flatMap((area) => area.resources);
  const find = (key: string) => resources.find((resource) => resource.key === key);
  const formBody = (resource: ResourceModel | undefined, action: string, serverOnly: Record<string, JsonSchema> = {}) => {
    const form = resource?.forms[action as keyof ResourceModel['forms']];
    return form ? { requestBody: jsonBody(actionBody(form.schema, serverOnly)) } : {};
  };
  const subscribers = find(MODULE.subscribers);
  const uploads = find(MODULE.dataUploadLogs);
  const banners = find(MODULE.banners);
  return [
    ...sessionOperations(),
    ...permissionOperations(model),
    ...profileOperations(find(MODULE.userProfile), find(MODULE.changePassword), formBody),
    ...notificationOperations(),
    ...(subscribers && isEntityResource(subscribers) ? subscriberOperations(subscribers, find(MODULE.executiveProfile), formBody) : []),
    ...(uploads && isEntityResource(uploads) ? uploadOperations(uploads) : []),
    ...(banners ? bannerOperations(banners) : []),
    ...reportOperations(),
    { method: 'get', path: '/openapi.json', tag: 'API', summary: 'This document', access: 'public', answers: { '200': { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) } } },
  ];
}

type FormBody = (resource: ResourceModel | undefined, action: string, serverOnly?: Record<string, JsonSchema>) => { requestBody?: Record<string, unknown> };

function sessionOperations(): OperationSpec[] {
  const tag = 'Session';
  const tokens = dataAnswer('A new access and refresh token.', ref('TokenPair'));
  return [
    {
      method: 'post',
      path: '/login',
      tag,
      summary: 'Log in',
      access: 'public',
      notes: 'Repeated failures for an e-mail are throttled (429).',
      requestBody: jsonBody(loginBody),
      answers: { '200': tokens, '401': { $ref: '#/components/responses/Unauthorized' } },
      errors: [429],
    },
    {
      method: 'post',
      path: '/token/refresh',
      tag,
      summary: 'Rotate the refresh token',
      access: 'public',
      notes: 'A refresh token used twice revokes its whole family (401).',
      requestBody: jsonBody(refreshBody),
      answers: { '200': tokens, '401': { $ref: '#/components/responses/Unauthorized' } },
    },
    {
      method: 'post',
      path: '/logout',
      tag,
      summary: 'Log out',
      access: 'public',
      optionalToken: true,
      notes: 'Revokes the session of the Bearer token, if any, and the family of `refresh`, if sent; works with an expired token too.',
      requestBody: jsonBody(logoutBody),
      answers: { '200': messageAnswer('Logged out.') },
    },
    {
      method: 'post',
      path: '/forget_password',
      tag,
      summary: 'Send a password reset link',
      access: 'public',
      notes: 'The same answer whether or not the e-mail has an account.',
      requestBody: jsonBody(forgetPasswordBody),
      answers: { '200': messageAnswer('A link was sent if the account exists.') },
    },
    {
      method: 'post',
      path: '/check-link',
      tag,
      summary: 'Check a password reset link',
      access: 'public',
      notes: 'An expired or used link is a 400.',
      requestBody: jsonBody(checkLinkBody),
      answers: { '200': dataAnswer('The link is valid.', object({ valid: { const: true }, email: string })) },
    },
    {
      method: 'post',
      path: '/reset_password',
      tag,
      summary: 'Choose a new password with a reset link',
      access: 'public',
      notes: 'The link works once; every session of the user ends.',
      requestBody: jsonBody(resetPasswordBody),
      answers: { '200': messageAnswer('Password changed.') },
    },
    {
      method: 'post',
      path: '/email-verify',
      tag,
      summary: 'Verify an e-mail address',
      access: 'public',
      requestBody: jsonBody(emailVerifyBody),
      answers: { '200': messageAnswer('Address verified.') },
    },
  ];
}

function permissionOperations(model: ProjectModel): OperationSpec[] {
  const action = object({ is_routable: { type: 'boolean' }, route_url: string });
  const permissionMap = {
    type: 'object',
    description: 'Module → its order and the granted actions with their routes.',
    additionalProperties: object({ order: integer, actions: { type: 'object', additionalProperties: action } }),
  };
  const roles = model.areas.flatMap((area) => area.resources).find((resource) => resource.key === MODULE.roles);
  const tag = roles?.label ?? 'Roles';
  return [
    { method: 'get', path: '/user/permission', tag: 'Session', summary: 'The caller\'s permissions', access: 'signed-in', answers: { '200': dataAnswer('Built from the role on every call.', permissionMap) } },
    {
      method: 'get',
      path: '/roles/{id}/permissions',
      tag,
      summary: 'A role\'s permission set',
      access: { module: MODULE.roles, action: 'view' },
      params: idParams,
      answers: { '200': dataAnswer('The granted actions by module.', ref('PermissionSet')) },
      errors: [404],
    },
    {
      method: 'put',
      path: '/roles/{id}/permissions',
      tag,
      summary: 'Replace a role\'s permission set',
      access: { module: MODULE.roles, action: 'edit' },
      notes: 'Applies when the role\'s users next load `user/permission`.',
      params: idParams,
      requestBody: jsonBody(rolePermissionsBody(modulesOf(model))),
      answers: { '200': dataAnswer('Saved.', ref('PermissionSet'), true) },
      errors: [404],
    },
  ];
}

function profileOperations(userProfile: ResourceModel | undefined, changePassword: ResourceModel | undefined, formBody: FormBody): OperationSpec[] {
  const tag = userProfile?.label ?? 'Profile';
  const profile = object({ id: integer, first_name: string, last_name: string, email: string, mobile: nullableString, role: nullableString });
  return [
    { method: 'get', path: '/user/profile', tag, summary: 'The caller\'s profile', access: { module: MODULE.userProfile, action: 'view' }, answers: { '200': dataAnswer('The profile.', profile) } },
    {
      method: 'put',
      path: '/user/profile',
      tag,
      summary: 'Edit the caller\'s profile',
      access: { module: MODULE.userProfile, action: 'edit' },
      notes: `The body is the whole editable profile (${MODULE.userProfile}'s form \`edit\`): an optional field left out is cleared.`,
      ...formBody(userProfile, 'edit'),
      answers: { '200': dataAnswer('Updated.', profile, true) },
    },
    {
      method: 'post',
      path: '/user/change-password',
      tag: changePassword?.label ?? tag,
      summary: 'Change the caller\'s password',
      access: { module: MODULE.changePassword, action: 'edit' },
      notes: `${MODULE.changePassword}'s form \`edit\`; the caller's other sessions end.`,
      ...formBody(changePassword, 'edit'),
      answers: { '200': messageAnswer('Changed.') },
    },
  ];
}

function notificationOperations(): OperationSpec[] {
  const tag = 'Notifications';
  return [
    { method: 'get', path: '/notification', tag, summary: 'The caller\'s notifications', access: 'signed-in', notes: 'Newest first.', query: notificationQuery, answers: { '200': listAnswer('A page of notifications.', ref('Notification')) } },
    {
      method: 'post',
      path: '/notification',
      tag,
      summary: 'Mark a notification read',
      access: 'signed-in',
      requestBody: jsonBody(notificationReadBody),
      answers: { '200': dataAnswer('Marked read.', ref('Notification'), true) },
      errors: [404],
    },
    {
      method: 'post',
      path: '/notification/mark-all-as-read',
      tag,
      summary: 'Mark every notification read',
      access: 'signed-in',
      requestBody: jsonBody(markAllReadBody),
      answers: { '200': dataAnswer('Marked read.', object({ updated: integer }), true) },
    },
  ];
}

function subscriberOperations(subscribers: ResourceModel, executives: ResourceModel | undefined, formBody: FormBody): OperationSpec[] {
  const tag = subscribers.label;
  const can = (action: string) => ({ module: MODULE.subscribers, action });
  const subscription = object(
    {
      id: integer,
      subscriber_id: integer,
      plan_id: integer,
      starts_on: { type: 'string', format: 'date' },
      ends_on: { type: ['string', 'null'], format: 'date' },
      points: integer,
      price: number,
      created_by: { type: ['integer', 'null'] },
      created_at: dateTime,
      plan_label: { ...nullableString, description: 'The plan\'s label, as `<field>_label` on the lists.' },
      is_current: { type: 'boolean' },
    },
    ['id', 'subscriber_id', 'plan_id', 'starts_on', 'ends_on', 'points', 'price', 'created_at'],
  );
  const executiveScope = 'An executive (`executive_access`) reaches only the subscribers assigned to them.';
  return [
    {
      method: 'get',
      path: '/subscribers/{id}/summary',
      tag,
      summary: 'A subscriber with the latest subscription and the points balance',
      access: can('SUBSCRIBER_DETAIL'),
      notes: executiveScope,
      params: idParams,
      answers: {
        '200': dataAnswer(
          'The summary.',
          object({ subscriber: ref(subscribers.typeName), subscription: { anyOf: [{ ...subscription, required: [...subscription.required, 'plan_label', 'is_current'] }, { type: 'null' }] }, points_balance: integer }),
        ),
      },
      errors: [404],
    },
    {
      method: 'get',
      path: '/subscribers/{id}/ledger',
      tag,
      summary: 'A subscriber\'s points ledger',
      access: can('SUBSCRIBER_DETAIL'),
      notes: `Newest first, at most 500 entries. ${executiveScope}`,
      params: idParams,
      answers: { '200': dataAnswer('The entries.', { type: 'array', items: ref('LedgerEntry') }) },
      errors: [404],
    },
    {
      method: 'post',
      path: '/subscribers/{id}/subscriptions',
      tag,
      summary: 'Add a subscription',
      access: can('ADD_SUBSCRIPTION'),
      notes: `${MODULE.subscribers}'s form \`ADD_SUBSCRIPTION\`. Credits the plan's points and sets the subscriber's plan and status. ${executiveScope}`,
      params: idParams,
      ...formBody(subscribers, 'ADD_SUBSCRIPTION'),
      answers: { '201': dataAnswer('Added.', object({ subscription, ledger_entry: ref('LedgerEntry') }), true) },
      errors: [404],
    },
    {
      method: 'post',
      path: '/subscribers/{id}/top-ups',
      tag,
      summary: 'Add a points top-up',
      access: can('ADD_TOP_UP'),
      notes: `${MODULE.subscribers}'s form \`ADD_TOP_UP\` and \`idempotency_key\`, which the client makes once per top-up: the same key again answers 200 with the earlier entry and credits nothing. ${executiveScope}`,
      params: idParams,
      ...formBody(subscribers, 'ADD_TOP_UP', TOP_UP_SERVER_ONLY),
      answers: { '201': dataAnswer('Credited.', ref('LedgerEntry'), true), '200': dataAnswer('Already credited with this key.', ref('LedgerEntry'), true) },
      errors: [404],
    },
    {
      method: 'get',
      path: '/executives/{id}/subscribers',
      tag: executives?.label ?? tag,
      summary: 'The subscribers assigned to an executive',
      access: { module: MODULE.executiveProfile, action: 'view_detail' },
      params: idParams,
      query: executiveSubscribersQuery,
      answers: { '200': listAnswer('A page of subscribers.', ref(subscribers.typeName)) },
    },
  ];
}

function uploadOperations(uploads: ResourceModel): OperationSpec[] {
  const tag = uploads.label;
  const upload = ref(uploads.typeName);
  const uploaded = dataAnswer('The file was received and is being processed.', upload, true);
  const fileChecks = 'Refused: 403 after the link expired, 413 larger than announced, 415 not CSV text in UTF-8, 400 a header that does not match the data columns (`errors.file`).';
  return [
    {
      method: 'post',
      path: '/uploads',
      tag,
      summary: 'Start a trade-data upload',
      access: { module: MODULE.dataUploadLogs, action: 'add' },
      notes: 'Answers where to send the file: post `fields`, then the file as the multipart field `file` (last), to `upload_url`; then, when `complete_path` is not null (bucket storage), POST it.',
      requestBody: jsonBody(ref(`${uploads.typeName}Create`)),
      answers: {
        '201': dataAnswer(
          'The upload and its signed, expiring target.',
          object({
            upload,
            upload_url: { type: 'string', format: 'uri' },
            fields: { type: 'object', additionalProperties: string, description: 'Form fields to post before the file (a bucket\'s presigned policy); empty for the data folder.' },
            complete_path: { ...nullableString, description: '`uploads/<id>/complete` with bucket storage, else null.' },
            expires_at: dateTime,
            max_bytes: integer,
          }),
          true,
        ),
      },
    },
    {
      method: 'post',
      path: '/uploads/{id}/file',
      tag,
      summary: 'Post the file of an upload (the signed `upload_url`)',
      access: 'public',
      storage: 'folder',
      notes: `The signature in the URL is the authorisation. ${fileChecks} 409 a file was already posted.`,
      params: idParams,
      query: uploadFileQuery,
      requestBody: { required: true, content: { 'multipart/form-data': { schema: object({ file: { type: 'string', contentMediaType: 'text/csv' } }), encoding: { file: { contentType: 'text/csv' } } } } },
      answers: { '200': uploaded },
      errors: [404, 409, 413, 415],
    },
    {
      method: 'post',
      path: '/uploads/{id}/complete',
      tag,
      summary: 'Complete an upload posted to the bucket (`complete_path`)',
      access: { module: MODULE.dataUploadLogs, action: 'add' },
      storage: 'bucket',
      notes: `The server checks the file in the bucket; a refused one is deleted and the upload failed. 400 (\`errors.file\`) when no file has arrived yet. ${fileChecks} 409 already completed.`,
      params: idParams,
      requestBody: { content: json({ type: 'object' }) },
      answers: { '200': uploaded },
      errors: [404, 409, 413, 415],
    },
    {
      method: 'get',
      path: '/uploads/{id}/log',
      tag,
      summary: 'An upload\'s log',
      access: { module: MODULE.dataUploadLogs, action: 'view_detail' },
      params: idParams,
      answers: {
        '200': dataAnswer(
          'The upload with its file\'s state, and the rejected lines (at most 10,000).',
          object({
            upload: { allOf: [upload, { type: 'object', properties: { stored_at: { type: ['string', 'null'], format: 'date-time' }, processed_at: { type: ['string', 'null'], format: 'date-time' }, error: nullableString } }] },
            rejected: { type: 'array', items: object({ line: integer, reason: string }) },
          }),
        ),
      },
      errors: [404],
    },
  ];
}

function bannerOperations(banners: ResourceModel): OperationSpec[] {
  const tag = banners.label;
  const imageTypes = ['image/png', 'image/jpeg', 'image/webp'];
  return [
    {
      method: 'post',
      path: `/${banners.api}/image`,
      tag,
      summary: 'Upload a banner image',
      access: { anyOf: [{ module: banners.key, action: 'add' }, { module: banners.key, action: 'edit' }] },
      notes: `A PNG, JPEG or WebP (judged by its first bytes, else 415) of at most ${BANNER_IMAGE_MAX_BYTES / 1024 / 1024} MiB (else 413), stored under a random name; \`url\` is for the banner's \`image_url\`.`,
      requestBody: { required: true, content: { 'multipart/form-data': { schema: object({ file: { type: 'string', contentMediaType: 'application/octet-stream' } }), encoding: { file: { contentType: imageTypes.join(', ') } } } } },
      answers: { '201': dataAnswer('Stored.', object({ url: { type: 'string', description: `A same-origin path: /api/v1/${banners.api}/images/<name>.` } }), true) },
      errors: [413, 415],
    },
    {
      method: 'get',
      path: `/${banners.api}/images/{name}`,
      tag,
      summary: 'A banner image',
      access: 'public',
      notes: 'Public, as an `<img>` sends no token; names are random. Cached for a year (immutable).',
      checkedParams: { type: 'object', properties: { name: { type: 'string', pattern: BANNER_IMAGE_NAME.source } } },
      answers: { '200': { description: 'The image.', content: Object.fromEntries(imageTypes.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }])) } },
      errors: [404],
    },
  ];
}

function reportOperations(): OperationSpec[] {
  const month = { type: 'string', description: 'YYYY-MM' };
  const tradeRecord = object(
    {
      id: integer,
      upload_id: integer,
      country_id: { type: ['integer', 'null'] },
      trade_direction: nullableString,
      period: nullableString,
      shipment_date: { type: 'string', format: 'date' },
      hs_code: string,
      product_description: string,
      quantity: number,
      unit: string,
      value: number,
      importer: nullableString,
      exporter: nullableString,
      origin_country: nullableString,
      destination_country: nullableString,
      port_of_loading: nullableString,
      port_of_discharge: nullableString,
    },
    ['id', 'upload_id', 'shipment_date', 'hs_code', 'product_description', 'quantity', 'unit', 'value'],
  );
  const summaryRange = 'Monthly series from `from` to `to` (inclusive dates; either may be left out).';
  const reporting = { module: MODULE.adminReporting, action: 'view' };
  return [
    {
      method: 'get',
      path: '/uploaded-data-report',
      tag: 'Uploaded data report',
      summary: 'Uploaded trade records',
      access: { module: MODULE.uploadedDataReport, action: 'view' },
      notes: 'Newest shipments first; `q` searches product, HS code, importer and exporter.',
      query: tradeQuery,
      answers: { '200': listAnswer('A page of trade records.', tradeRecord) },
    },
    {
      method: 'get',
      path: '/uploaded-data-report/export',
      tag: 'Uploaded data report',
      summary: 'Export the uploaded trade records as CSV',
      access: { module: MODULE.uploadedDataReport, action: 'download' },
      query: tradeExportQuery,
      answers: { '200': csvAnswer('CSV, streamed as an attachment.') },
    },
    {
      method: 'get',
      path: '/sync-trending-data',
      tag: 'Trending data',
      summary: 'The trending products',
      access: { module: MODULE.syncTrendingData, action: 'view' },
      answers: {
        '200': dataAnswer(
          'The products most shipped in the last months, as of the last refresh.',
          object({ synced_at: { type: ['string', 'null'], format: 'date-time' }, items: { type: 'array', items: object({ hs_code: string, product: string, shipments: integer, value: number }) } }),
        ),
      },
    },
    {
      method: 'post',
      path: '/sync-trending-data/refresh',
      tag: 'Trending data',
      summary: 'Recompute the trending products',
      access: { module: MODULE.syncTrendingData, action: 'refresh' },
      answers: { '200': dataAnswer('Refreshed.', object({ synced_at: dateTime, rows: integer }), true) },
    },
    {
      method: 'get',
      path: '/reports/summary',
      tag: 'Admin reporting',
      summary: 'The admin report',
      access: reporting,
      notes: summaryRange,
      query: reportSummaryQuery,
      answers: {
        '200': dataAnswer(
          'Each series by month.',
          object({
            subscribers_by_plan: { type: 'array', items: object({ month, plan: string, subscribers: integer }) },
            points_consumed: { type: 'array', items: object({ month, points: integer }) },
            uploads_per_month: { type: 'array', items: object({ month, uploads: integer }) },
            revenue: { type: 'array', items: object({ month, revenue: number }) },
          }),
        ),
      },
    },
    {
      method: 'get',
      path: '/reports/summary/export',
      tag: 'Admin reporting',
      summary: 'Export the admin report as CSV',
      access: { allOf: [reporting, { module: MODULE.adminReporting, action: 'download' }] },
      notes: `${summaryRange} One row per series and month: \`Report,Month,Plan,Value\`.`,
      query: reportSummaryQuery,
      answers: { '200': csvAnswer('CSV, as an attachment.') },
    },
    {
      method: 'get',
      path: '/modules',
      tag: 'Module registry',
      summary: 'The manifest\'s modules',
      access: { module: MODULE.moduleRegistry, action: 'view' },
      answers: {
        '200': dataAnswer(
          'Every area with its resources, their actions and routes.',
          {
            type: 'array',
            items: object({
              key: string,
              label: string,
              path: string,
              order: integer,
              sidebar_link: nullableString,
              resources: {
                type: 'array',
                items: object({
                  key: string,
                  label: string,
                  api: string,
                  actions: { type: 'array', items: string },
                  routes: { type: 'object', additionalProperties: object({ path: string, routable: { type: 'boolean' } }) },
                  has_entity: { type: 'boolean' },
                }),
              },
            }),
          },
        ),
      },
    },
  ];
}

/** Every module with the actions it offers, as the role permission set lists them: the areas (view), then the resources. */
function modulesOf(model: ProjectModel): Array<{ key: string; actions: readonly string[] }> {
  return [...model.areas.map((area) => ({ key: area.key, actions: ['view'] })), ...model.areas.flatMap((area) => area.resources).map((resource) => ({ key: resource.key, actions: resource.actions }))];
}
