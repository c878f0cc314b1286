import { BANNER_IMAGE_MAX_BYTES, BANNER_IMAGE_NAME, executiveSubscribersQuery, TOP_UP_SERVER_ONLY } from '../../contract/endpoints.ts';
import { MODULE } from '../../contract/modules.ts';
import { idParams } from '../../contract/resources.ts';
import type { ResourceModel } from '../../contract/description.ts';
import { dateTime, type FormBody, integer, nullableString, number, object } from './openapiFixedCommon.ts';
import { dataAnswer, listAnswer, type OperationSpec, ref } from './openapiOperation.ts';

// The fixed endpoints of subscribers (subscriptions, top-ups, points) and of banner images.
export function subscriberOperations(subscribers: ResourceModel, executives: ResourceModel | undefined, formBody: FormBody): OperationSpec[] {
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

export function bannerOperations(banners: ResourceModel): OperationSpec[] {
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
