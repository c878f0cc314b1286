import { useId } from 'react';
import { WEBHOOK_LIMITS, type WebhookAnswer } from '../../../../contract/webhooks.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { FormDialog } from '../../shared/FormDialog.tsx';
import { QueryState } from '../../shared/QueryState.tsx';
import { StaleRecordNotice } from '../../shared/StaleRecordNotice.tsx';
import { EventsPicker } from './EventsPicker.tsx';
import { SigningSecretDialog } from './SigningSecretDialog.tsx';
import { useWebhookEvents } from './webhookQueries.ts';
import { useWebhookForm } from './useWebhookForm.ts';
import '../../../forms/forms.css';

export interface WebhookDialogProps {
  /** The webhooks' API path (`webhooks`). */
  api: string;
  /** The webhook to change, as read; absent: a new one. */
  webhook?: WebhookAnswer;
  onClose: (saved: boolean) => void;
}

/**
 * Makes or changes a webhook: its name, the receiver's URL, whether it is on, and the events it wants. A new one's
 * signing secret is then shown once. What was typed stays when the server refuses it.
 */
export function WebhookDialog({ api, webhook, onClose }: WebhookDialogProps) {
  const events = useWebhookEvents(api);
  const form = useWebhookForm(api, webhook, (message) => {
    toastSuccess(message);
    onClose(true);
  });
  const nameId = useId();
  const urlId = useId();
  const enabledId = useId();
  const { values, fieldErrors: errors } = form;
  const title = webhook ? `Edit webhook "${webhook.name}"` : 'New webhook';
  const ready = values.name.trim() !== '' && values.url.trim() !== '' && values.events.length > 0;
  const errorOf = (id: string, field: string) =>
    errors[field] && (
      <p id={`${id}-error`} className="field-error">
        {errors[field]}
      </p>
    );

  if (form.made) return <SigningSecretDialog answer={form.made} renewed={false} onClose={() => onClose(true)} />;
  return (
    <FormDialog
      title={title}
      className="webhook-form"
      ready={ready}
      busy={form.saving}
      submitLabel={webhook ? 'Save changes' : 'Make the webhook'}
      busyLabel="Saving…"
      refusal={form.refusal}
      onSubmit={form.submit}
      onCancel={() => onClose(false)}
    >
      <div className="field">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          value={values.name}
          required
          maxLength={WEBHOOK_LIMITS.nameLength}
          placeholder="Billing system"
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? `${nameId}-error` : undefined}
          onChange={(event) => form.change({ name: event.target.value })}
        />
        {errorOf(nameId, 'name')}
      </div>
      <div className="field">
        <label htmlFor={urlId}>URL</label>
        <input
          id={urlId}
          type="url"
          value={values.url}
          required
          maxLength={WEBHOOK_LIMITS.urlLength}
          placeholder="https://billing.example.com/hooks/trade-data"
          aria-invalid={errors.url ? true : undefined}
          aria-describedby={`${urlId}-help${errors.url ? ` ${urlId}-error` : ''}`}
          onChange={(event) => form.change({ url: event.target.value })}
        />
        <p id={`${urlId}-help`} className="webhook-help">
          Where each event is sent as a POST (https://…). The receiver has {WEBHOOK_LIMITS.timeoutSeconds} seconds to
          answer with a 2xx status; otherwise the delivery is tried again later.
        </p>
        {errorOf(urlId, 'url')}
      </div>
      <div>
        <label className="webhook-form__enabled">
          <input
            type="checkbox"
            checked={values.enabled}
            aria-describedby={`${enabledId}-help`}
            onChange={(event) => form.change({ enabled: event.target.checked })}
          />{' '}
          Enabled
        </label>
        <p id={`${enabledId}-help`} className="webhook-help">
          Untick to pause it: nothing is sent to it while it is paused, and what happens meanwhile is not sent later.
        </p>
        {errors.enabled && <p className="field-error">{errors.enabled}</p>}
      </div>
      <QueryState query={events} what="the events you may choose">
        <EventsPicker
          choices={events.data ?? []}
          chosen={values.events}
          onChange={(chosen) => form.change({ events: chosen })}
          error={errors.events}
        />
      </QueryState>
      {form.stale.notice && (
        <StaleRecordNotice
          what="webhook"
          state={form.stale.notice}
          reloading={form.stale.reloading}
          onReload={form.reload}
        />
      )}
    </FormDialog>
  );
}
