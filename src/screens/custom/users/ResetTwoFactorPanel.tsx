import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { ConfirmDialog } from '../../shared/ConfirmDialog.tsx';

export interface ResetTwoFactorPanelProps {
  /** `users/12`. */
  owner: string;
}

/**
 * "Reset two-factor" for an administrator who may edit users: after a confirmation, the user signs in with their
 * password alone until they enrol again, and is told by e-mail (`DELETE users/:id/two-factor`). A user without a
 * second factor gets the server's answer (409) in its toast.
 */
export function ResetTwoFactorPanel({ owner }: ResetTwoFactorPanelProps) {
  const [asking, setAsking] = useState(false);
  const reset = useMutation({
    mutationFn: () => http.delete<{ message: string }>(`${owner}/two-factor`),
    onSuccess: (body) => toastSuccess(body.message),
    onSettled: () => setAsking(false),
  });
  return (
    <section className="panel" aria-labelledby="reset-two-factor-title">
      <h2 id="reset-two-factor-title">Two-factor sign-in</h2>
      <p>A user who lost their phone and their recovery codes cannot sign in: reset their second factor.</p>
      <div>
        <button type="button" className="button button--danger" onClick={() => setAsking(true)}>
          Reset two-factor
        </button>
      </div>
      {asking && (
        <ConfirmDialog
          title="Reset two-factor sign-in?"
          confirmLabel="Reset two-factor"
          destructive
          busy={reset.isPending}
          onConfirm={() => !reset.isPending && reset.mutate()}
          onCancel={() => setAsking(false)}
        >
          <p>
            This user will sign in with their password alone until they set up an authenticator app again. They are told
            by e-mail, and the reset is written in the audit log.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
