import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  WebhookAnswer,
  WebhookDeliveryAnswer,
  WebhookDeliveryState,
  WebhookEventChoice,
} from '../../../../contract/webhooks.ts';
import { http, isApiError } from '../../../http/index.ts';
import type { PageOf } from '../../generic/list/PagedRowsTable.tsx';

/** What making a webhook or a new signing secret answers: the webhook with its secret, shown this once. */
export interface WebhookWithSecret {
  data: WebhookAnswer & { secret: string };
  message: string;
}

/** The states the delivery log can be filtered by (a delivery being sent counts as pending). */
export type DeliveryFilter = Exclude<WebhookDeliveryState, 'sending'>;

/** The first part of every query key of the screen: one invalidation refreshes the list, a webhook and its log. */
export const WEBHOOKS_QUERY = 'webhooks';

/** How often the delivery log is read again while a delivery it shows is still to be sent. */
const DELIVERY_POLL_MS = 3000;

const NOT_FOUND = 404;

/** The events the caller may choose (`GET webhooks/events`); they change only with the caller's role. */
export function useWebhookEvents(api: string) {
  return useQuery({
    queryKey: [WEBHOOKS_QUERY, 'events'],
    queryFn: ({ signal }) =>
      http.get<{ data: WebhookEventChoice[] }>(`${api}/events`, { signal }).then((body) => body.data),
    staleTime: 5 * 60_000,
  });
}

export function useWebhooks(api: string, page: number, size: number) {
  return useQuery({
    queryKey: [WEBHOOKS_QUERY, 'list', page, size],
    queryFn: ({ signal }) =>
      http.get<PageOf<WebhookAnswer>>(api, { params: { _page: page, _page_size: size }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** The webhook asked for is not there (deleted meanwhile, or a wrong address). */
export const isMissingWebhook = (error: unknown) => isApiError(error) && error.status === NOT_FOUND;

/** One webhook; when it is missing the screen says so, not an error toast. */
export function useWebhook(api: string, id: number) {
  return useQuery({
    queryKey: [WEBHOOKS_QUERY, 'one', id],
    queryFn: ({ signal }) =>
      http
        .get<{ data: WebhookAnswer }>(`${api}/${id}`, { signal, shownByCaller: [NOT_FOUND] })
        .then((body) => body.data),
  });
}

export interface DeliveriesQuery {
  webhookId: number;
  state: DeliveryFilter | null;
  page: number;
  size: number;
}

/** A page of a webhook's delivery log, newest first, read again while one of it is still to be sent. */
export function useDeliveries(api: string, { webhookId, state, page, size }: DeliveriesQuery) {
  return useQuery({
    queryKey: [WEBHOOKS_QUERY, 'deliveries', webhookId, state, page, size],
    queryFn: ({ signal }) =>
      http.get<PageOf<WebhookDeliveryAnswer>>(`${api}/${webhookId}/deliveries`, {
        params: { _page: page, _page_size: size, state: state ?? undefined },
        signal,
        loader: false,
      }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) =>
      query.state.data?.data.some((delivery) => delivery.state === 'pending' || delivery.state === 'sending')
        ? DELIVERY_POLL_MS
        : false,
  });
}
