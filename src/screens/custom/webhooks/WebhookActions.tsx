import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { WebhookAnswer, WebhookDeliveryAnswer } from '../../../../contract/webhooks.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { BusyButton } from '../../shared/BusyButton.tsx';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';
import type { ResourceAccess } from '../../shared/useResourceAccess.ts';
import { SigningSecretDialog } from './SigningSecretDialog.tsx';
import { WebhookDialog } from './WebhookDialog.tsx';
import { WEBHOOKS_QUERY, type WebhookWithSecret } from './webhookQueries.ts';

export interface WebhookActionsProps {
  api: string;
  webhook: WebhookAnswer;
  access: ResourceAccess;
  /** Where the user goes once the webhook is deleted. */
  listPath: string;
}

type Asking = 'edit' | 'renew' | 'delete' | null;

/**
 * What may be done to one webhook, each with the access it needs: Edit, Send test event and New signing secret (edit),
 * Delete (delete); the questions they ask first, and the new secret, shown once.
 */
export function WebhookActions({ api, webhook, access, listPath }: WebhookActionsProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [asking, setAsking] = useState<Asking>(null);
  const path = `${api}/${webhook.id}`;
  const refresh = () => void queryClient.invalidateQueries({ queryKey: [WEBHOOKS_QUERY] });
  const ping = useMutation({
    mutationFn: () => http.post<{ data: WebhookDeliveryAnswer; message: string }>(`${path}/ping`),
    onSuccess: (body) => {
      toastSuccess(body.message);
      refresh();
    },
  });
  const renew = useMutation({
    mutationFn: () => http.post<WebhookWithSecret>(`${path}/secret`),
    onSuccess: () => {
      setAsking(null);
      refresh();
    },
  });
  const remove = useMutation({
    mutationFn: () => http.delete<{ message: string }>(path),
    onSuccess: (body) => {
      toastSuccess(body.message);
      void navigate(listPath);
      refresh();
    },
  });

  return (
    <>
      {access.edit && (
        <>
          <button type="button" className="button button--primary" onClick={() => setAsking('edit')}>
            Edit
          </button>
          <BusyButton busy={ping.isPending} busyLabel="Sending…" onClick={() => ping.mutate()}>
            Send test event
          </BusyButton>
          <button type="button" className="button" onClick={() => setAsking('renew')}>
            New signing secret
          </button>
        </>
      )}
      {access.delete && (
        <button type="button" className="button button--danger" onClick={() => setAsking('delete')}>
          Delete
        </button>
      )}
      {asking === 'edit' && (
        <WebhookDialog
          api={api}
          webhook={webhook}
          onClose={(saved) => {
            setAsking(null);
            if (saved) refresh();
          }}
        />
      )}
      {asking === 'renew' && (
        <ConfirmDialog
          title={`New signing secret of "${webhook.name}"?`}
          confirmLabel="Make a new secret"
          busy={renew.isPending}
          onConfirm={() => renew.mutate()}
          onCancel={() => setAsking(null)}
        >
          The secret it has now ({webhook.secret_hint}…) stops working at once: from now on every delivery is signed
          with the new one, and the receiver refuses them until it is given the new one.
        </ConfirmDialog>
      )}
      {renew.data && <SigningSecretDialog answer={renew.data} renewed onClose={() => renew.reset()} />}
      {asking === 'delete' && (
        <ConfirmDialog
          title={`Delete webhook "${webhook.name}"?`}
          confirmLabel="Delete"
          destructive
          busy={remove.isPending}
          onConfirm={() => remove.mutate()}
          onCancel={() => setAsking(null)}
        >
          Nothing more is sent to {webhook.url}, and its delivery log goes with it. This cannot be undone.
        </ConfirmDialog>
      )}
    </>
  );
}
