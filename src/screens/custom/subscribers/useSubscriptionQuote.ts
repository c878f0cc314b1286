import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { PRICE_QUOTE_DEBOUNCE_MS } from '../../../config/constants.ts';
import { http, isApiError } from '../../../http/index.ts';

/** What a subscription would cost, in rupees. */
interface SubscriptionQuote {
  list_price: number;
  discount: number;
  amount_due: number;
}

interface QuoteRequest {
  plan_id?: number;
  voucher_code?: string;
  is_trial?: boolean;
}

export interface UseSubscriptionQuoteResult {
  quote: SubscriptionQuote | undefined;
  /** The server's word on the voucher code asked about, with that code (it shows on the field while the code is unchanged). */
  voucherError: { code: string; text: string } | null;
  /** Why the price could not be worked out, when it is not the voucher. */
  problem: string | null;
  isFetching: boolean;
}

/**
 * The price of the subscription being added (GET `subscription-quote`), asked once the plan, voucher and trial
 * choice have stopped changing for a moment; the last price stays on screen while the next is on its way.
 */
export function useSubscriptionQuote(subscriberPath: string, request: QuoteRequest): UseSubscriptionQuoteResult {
  const asked = useSettled(
    {
      plan_id: request.plan_id,
      voucher_code: request.voucher_code?.trim() || undefined,
      is_trial: request.is_trial ?? false,
    },
    PRICE_QUOTE_DEBOUNCE_MS,
  );
  const query = useQuery<SubscriptionQuote>({
    queryKey: ['subscription-quote', subscriberPath, asked],
    queryFn: ({ signal }) =>
      http
        .get<{ data: SubscriptionQuote }>(`${subscriberPath}/subscription-quote`, {
          params: {
            plan_id: asked.plan_id!,
            is_trial: asked.is_trial,
            ...(asked.voucher_code ? { voucher_code: asked.voucher_code } : {}),
          },
          signal,
          loader: false,
          // A refused voucher is said on its field, not in a toast.
          shownByCaller: [400],
        })
        .then((body) => body.data),
    enabled: typeof asked.plan_id === 'number',
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
  const voucherText = isApiError(query.error) ? query.error.fieldErrors.voucher_code : undefined;
  return {
    quote: query.isError ? undefined : query.data,
    voucherError: voucherText && asked.voucher_code ? { code: asked.voucher_code, text: voucherText } : null,
    problem: query.isError && !voucherText ? problemOf(query.error) : null,
    isFetching: query.isFetching,
  };
}

function problemOf(error: unknown): string {
  if (!isApiError(error)) return 'The price could not be worked out.';
  return Object.values(error.fieldErrors)[0] ?? error.message;
}

/** The value once it has stayed the same for `ms` (compared by content, so a new object with the same fields is no change). */
function useSettled<T>(value: T, ms: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}
