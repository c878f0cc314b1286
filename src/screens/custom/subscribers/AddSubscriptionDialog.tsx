import { useState } from 'react';
import { SUBSCRIBER_FIELDS } from '../../../../contract/modules.ts';
import { SchemaForm, type FormData, type ServerFieldErrors } from '../../../forms/index.ts';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { actionForm } from '../../shared/actionForm.ts';
import { Dialog } from '../../shared/Dialog.tsx';
import { formatMoney } from '../../shared/formatValue.ts';
import { useFormSubmission } from '../../shared/useFormSubmission.ts';
import { localDate } from './subscriptionStanding.ts';
import { useSubscriptionQuote, type UseSubscriptionQuoteResult } from './useSubscriptionQuote.ts';

export interface AddSubscriptionDialogProps {
  resource: ResourceDescription;
  subscriberId: string;
  /** `changed`: a subscription was added. */
  onClose: (changed: boolean) => void;
}

const TITLE = 'Add subscription';

/**
 * ADD_SUBSCRIPTION: the manifest's form (plan, start, trial, voucher, payment) with the price the server quotes for
 * the plan and voucher as they are chosen. A voucher the server refuses, then or on submit, is said on its field.
 */
export function AddSubscriptionDialog({ resource, subscriberId, onClose }: AddSubscriptionDialogProps) {
  const form = actionForm(resource, 'ADD_SUBSCRIPTION');
  const subscriberPath = `${resource.api}/${subscriberId}`;
  const plansApi =
    resource.entity?.fields.find((field) => field.name === SUBSCRIBER_FIELDS.plan.field)?.relation?.api ?? 'plans';
  const [formData, setFormData] = useState<FormData>(() => ({ starts_on: localDate() }));
  const quote = useSubscriptionQuote(subscriberPath, {
    plan_id: typeof formData.plan_id === 'number' ? formData.plan_id : undefined,
    voucher_code: typeof formData.voucher_code === 'string' ? formData.voucher_code : undefined,
    is_trial: formData.is_trial === true,
  });
  const submission = useFormSubmission(
    (data) => http.post<{ message?: string }>(`${subscriberPath}/subscriptions`, data),
    (body) => {
      toastSuccess(body.message ?? 'Subscription added.');
      onClose(true);
    },
  );
  const uiSchema = { ...form.uiSchema, plan_id: { 'ui:widget': 'relation', 'ui:options': { api: plansApi } } };
  return (
    <Dialog title={TITLE} onClose={() => onClose(false)}>
      <SchemaForm
        label={TITLE}
        {...form}
        uiSchema={uiSchema}
        formData={formData}
        onChange={(data) =>
          setFormData(
            typeof data.voucher_code === 'string' ? { ...data, voucher_code: data.voucher_code.toUpperCase() } : data,
          )
        }
        {...submission}
        serverErrors={withVoucherError(submission.serverErrors, quote.voucherError)}
        submitLabel={TITLE}
        actions={
          <button type="button" className="button" onClick={() => onClose(false)}>
            Cancel
          </button>
        }
      >
        <PriceLine planChosen={typeof formData.plan_id === 'number'} quote={quote} />
      </SchemaForm>
    </Dialog>
  );
}

/** The server's errors of the last submit, and its word on the voucher code last quoted, shown on that field. */
function withVoucherError(
  submitted: ServerFieldErrors | null,
  voucherError: UseSubscriptionQuoteResult['voucherError'],
): ServerFieldErrors | null {
  if (!voucherError) return submitted;
  return {
    fields: { ...submitted?.fields, voucher_code: voucherError.text },
    submitted: { ...submitted?.submitted, voucher_code: voucherError.code },
  };
}

function PriceLine({ planChosen, quote }: { planChosen: boolean; quote: UseSubscriptionQuoteResult }) {
  let content;
  if (!planChosen) content = <p>Choose a plan to see its price.</p>;
  else if (quote.problem) content = <p>{quote.problem}</p>;
  else if (quote.voucherError) content = <p>No price while the voucher code is refused.</p>;
  else if (!quote.quote) content = <p>Working out the price…</p>;
  else {
    content = (
      <dl className="price-line__figures">
        <div>
          <dt>List price</dt>
          <dd>{formatMoney(quote.quote.list_price)}</dd>
        </div>
        <div>
          <dt>Discount</dt>
          <dd>{quote.quote.discount > 0 ? `−${formatMoney(quote.quote.discount)}` : formatMoney(0)}</dd>
        </div>
        <div>
          <dt>Amount due</dt>
          <dd>{formatMoney(quote.quote.amount_due)}</dd>
        </div>
      </dl>
    );
  }
  return (
    <section className="price-line" aria-label="Price" aria-live="polite" aria-busy={quote.isFetching || undefined}>
      {content}
    </section>
  );
}
