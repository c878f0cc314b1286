import { http as mock, HttpResponse } from 'msw';
import type { WebhookAnswer, WebhookDeliveryAnswer, WebhookEventChoice } from '../../../../../contract/webhooks.ts';
import { customResource } from '../../../testing/fixtures.ts';
import { api, renderScreen, routeOf, server } from '../../../testing/renderScreen.tsx';
import WebhooksScreen from '../../WebhooksScreen.tsx';

// Tests only: the webhooks API in msw, the webhooks, events and deliveries it answers with, and the screen.

const LIST = '/user-management/webhooks';
const resource = customResource('WEBHOOKS', 'webhooks', ['view', 'add', 'edit', 'delete'], LIST);
const route = routeOf(resource, 'view', 'webhooks');

/** Seven modules' record events (enough for the module finder) and the two domain events. */
const MODULES = [
  ['VOUCHER', 'Vouchers', 'vouchers'],
  ['SUBSCRIBERS', 'Subscribers', 'subscribers'],
  ['COMPANY', 'Companies', 'companies'],
  ['COUNTRY', 'Countries', 'countries'],
  ['CATEGORY', 'Categories', 'categories'],
  ['BANNER', 'Banners', 'banners'],
  ['CURRENCY', 'Currencies', 'currencies'],
] as const;
export const CHOICES: WebhookEventChoice[] = [
  ...MODULES.flatMap(([module, label, path]) =>
    ['created', 'updated', 'deleted', 'restored'].map((happened) => ({
      name: `${path}.${happened}`,
      module,
      module_label: label,
      description: `A record of ${label} was ${happened}.`,
    })),
  ),
  {
    name: 'uploads.published',
    module: 'DATA_UPLOAD',
    module_label: 'Data uploads',
    description: "A month's trade data was published.",
  },
  {
    name: 'subscriptions.expiring',
    module: 'SUBSCRIBERS',
    module_label: 'Subscribers',
    description: "A subscriber's subscription is near its end.",
  },
];

export const billing: WebhookAnswer = {
  id: 7,
  name: 'Billing system',
  url: 'https://billing.example.com/hooks',
  events: ['vouchers.created', 'vouchers.updated', 'uploads.published'],
  enabled: true,
  secret_hint: 'whsec_Ab12',
  version: 3,
  created_by: 1,
  created_by_email: 'admin@example.com',
  maker_active: true,
  created_at: '2026-11-02T09:00:00Z',
  updated_at: '2026-11-03T09:00:00Z',
  last_delivery: { state: 'failed', at: '2026-11-04T10:30:00Z', response_status: 500 },
  pending: 2,
  failed: 1,
  paused_reason: null,
};

export const delivered: WebhookDeliveryAnswer = {
  id: 41,
  webhook_id: 7,
  event_id: 'evt_0001',
  event: 'vouchers.updated',
  state: 'delivered',
  attempts: 1,
  created_at: '2026-11-04T10:00:00Z',
  last_attempt_at: '2026-11-04T10:00:01Z',
  next_attempt_at: null,
  delivered_at: '2026-11-04T10:00:01Z',
  response_status: 200,
  response_body: 'thanks',
  error: null,
  duration_ms: 84,
  replay_of: null,
  body: '{"id":"evt_0001","event":"vouchers.updated","data":{"code":"SAVE10"}}',
};
const failing: WebhookDeliveryAnswer = {
  ...delivered,
  id: 42,
  event_id: 'evt_0002',
  state: 'failed',
  attempts: 8,
  delivered_at: null,
  response_status: 500,
  response_body: 'database down',
  error: 'The receiver answered 500.',
};

/** The webhooks API as the server answers it, and what the screen sent to it. */
export function serveWebhooks(webhooks: WebhookAnswer[] = [billing]) {
  const sent: { method: string; path: string; body: unknown; ifMatch: string | null; query: string }[] = [];
  const record = async (request: Request) => {
    const url = new URL(request.url);
    const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text();
    sent.push({
      method: request.method,
      path: url.pathname.replace(/^.*\/webhooks/, 'webhooks'),
      body: text ? JSON.parse(text) : null,
      ifMatch: request.headers.get('if-match'),
      query: url.search,
    });
  };
  server.use(
    mock.get(api('webhooks/events'), () => HttpResponse.json({ data: CHOICES })),
    mock.get(api('webhooks'), () =>
      HttpResponse.json({ data: webhooks, meta: { total: webhooks.length, page: 1, page_size: 50 } }),
    ),
    mock.post(api('webhooks'), async ({ request }) => {
      await record(request);
      const body = sent.at(-1)?.body as { name: string; url: string; events: string[]; enabled: boolean };
      if (body.name === 'Refused')
        return HttpResponse.json(
          { message: 'Invalid input', errors: { url: 'The URL must start with https://.' } },
          { status: 400 },
        );
      return HttpResponse.json(
        {
          data: { ...billing, ...body, id: 8, secret: 'whsec_the-secret-once' },
          message: `Webhook "${body.name}" made.`,
        },
        { status: 201 },
      );
    }),
    mock.get(api('webhooks/:id'), ({ params }) => {
      const found = webhooks.find((webhook) => String(webhook.id) === params.id);
      return found
        ? HttpResponse.json({ data: found }, { headers: { ETag: `"${found.version}"` } })
        : HttpResponse.json({ message: 'Not found' }, { status: 404 });
    }),
    mock.put(api('webhooks/:id'), async ({ request }) => {
      await record(request);
      return HttpResponse.json({ data: billing, message: 'Webhook "Billing system" saved.' });
    }),
    mock.delete(api('webhooks/:id'), async ({ request }) => {
      await record(request);
      return HttpResponse.json({ message: 'Webhook "Billing system" deleted.' });
    }),
    mock.post(api('webhooks/:id/secret'), async ({ request }) => {
      await record(request);
      return HttpResponse.json({ data: { ...billing, secret: 'whsec_renewed' }, message: 'New signing secret made.' });
    }),
    mock.post(api('webhooks/:id/ping'), async ({ request }) => {
      await record(request);
      return HttpResponse.json(
        { data: { ...delivered, event: 'webhook.ping' }, message: 'Test event queued.' },
        { status: 202 },
      );
    }),
    mock.get(api('webhooks/:id/deliveries'), async ({ request }) => {
      await record(request);
      const state = new URL(request.url).searchParams.get('state');
      const rows = [failing, delivered].filter((delivery) => !state || delivery.state === state);
      return HttpResponse.json({ data: rows, meta: { total: rows.length, page: 1, page_size: 20 } });
    }),
    mock.post(api('webhooks/:id/deliveries/:deliveryId/resend'), async ({ request }) => {
      await record(request);
      return HttpResponse.json(
        { data: { ...failing, id: 43, replay_of: 42, state: 'pending' }, message: 'Delivery queued again.' },
        { status: 202 },
      );
    }),
  );
  return { sent };
}

/** Tests only: the screen as a list's row opens it, at `?webhook=<id>`; or the list itself. */
export const renderWebhooks = (opened?: number) =>
  renderScreen(WebhooksScreen, { resource, route, at: opened === undefined ? LIST : `${LIST}?webhook=${opened}` });
