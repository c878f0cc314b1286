import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ResourceDescription } from '../../../generated/types.ts';
import { http } from '../../../http/index.ts';
import { useCanAccess } from '../../../permissions/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { formatDate } from '../../shared/formatValue.ts';
import { QueryState } from '../../shared/QueryState.tsx';

/** `GET users/:id/email-verification` (docs/api.md, "E-mail"). */
interface VerificationStatus {
  email: string;
  verified_at: string | null;
  last_link_sent_at: string | null;
  last_link_expires_at: string | null;
}

export interface EmailVerificationPanelProps {
  resource: ResourceDescription;
  userId: string;
}

/**
 * Whether the user has verified their address (they cannot sign in before), and, for an administrator who may edit
 * users, "Send the verification link again" (POST `users/:id/email-verification`).
 */
export function EmailVerificationPanel({ resource, userId }: EmailVerificationPanelProps) {
  const queryClient = useQueryClient();
  const canSend = useCanAccess(resource.module, 'edit').allowed && resource.actions.includes('edit');
  const path = `${resource.api}/${userId}/email-verification`;
  const queryKey = ['resource', resource.api, 'email-verification', userId];
  const status = useQuery({
    queryKey,
    queryFn: ({ signal }) => http.get<{ data: VerificationStatus }>(path, { signal }).then((body) => body.data),
  });
  const resend = useMutation({
    mutationFn: () => http.post<{ data: VerificationStatus; message: string }>(path, {}),
    onSuccess: (body) => {
      queryClient.setQueryData(queryKey, body.data);
      toastSuccess(body.message);
    },
  });

  return (
    <section className="panel" aria-labelledby="email-verification-title">
      <h2 id="email-verification-title">Email verification</h2>
      <QueryState query={status} what="the email verification">
        {status.data && (
          <>
            <p role="status">
              {status.data.verified_at
                ? `${status.data.email} was verified on ${formatDate(status.data.verified_at, true)}.`
                : `${status.data.email} is not verified yet: this user cannot sign in until they open the link sent to them.`}
            </p>
            {!status.data.verified_at && status.data.last_link_sent_at && (
              <p>
                Last link sent on {formatDate(status.data.last_link_sent_at, true)}; it expires on{' '}
                {formatDate(status.data.last_link_expires_at, true)}.
              </p>
            )}
            {!status.data.verified_at && canSend && (
              <div>
                <button type="button" className="button" disabled={resend.isPending} onClick={() => resend.mutate()}>
                  {resend.isPending ? 'Sending…' : 'Send the verification link again'}
                </button>
              </div>
            )}
          </>
        )}
      </QueryState>
    </section>
  );
}
