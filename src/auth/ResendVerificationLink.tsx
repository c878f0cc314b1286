import { useEffect, useState } from 'react';
import { VERIFY_LINK_RESEND_WAIT_S } from '../config/constants.ts';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import { FormMessage } from './FormMessage.tsx';

export interface ResendVerificationLinkProps {
  /** The credentials the sign-in was refused with: only the account's owner may have a link sent to it. */
  email: string;
  password: string;
}

type Outcome = { kind: 'success' | 'error'; message: string } | null;

/**
 * "Send the link again" under a sign-in refused for an unverified address (POST `email-verify/resend`). After a link
 * went out it rests for as long as the server would refuse another, counting down, so the wait is seen, not met.
 */
export function ResendVerificationLink({ email, password }: ResendVerificationLinkProps) {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const send = async () => {
    setBusy(true);
    setOutcome(null);
    try {
      const answer = await http.post<{ message: string }>('email-verify/resend', { email, password });
      setOutcome({ kind: 'success', message: answer.message });
      setNow(Date.now());
      setWaitUntil(Date.now() + VERIFY_LINK_RESEND_WAIT_S * 1000);
    } catch (error) {
      setOutcome({ kind: 'error', message: isApiError(error) ? error.message : 'The link could not be sent.' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="resend-link">
      <FormMessage kind={outcome?.kind ?? 'info'} text={outcome?.message ?? null} />
      <button type="button" className="button button--block" disabled={busy || secondsLeft > 0} onClick={() => void send()}>
        {busy ? 'Sending…' : secondsLeft > 0 ? `Send the link again (in ${secondsLeft} s)` : 'Send the link again'}
      </button>
    </div>
  );
}
