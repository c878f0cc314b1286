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

/**
 * "Send the link again" under a sign-in refused for an unverified address (POST `email-verify/resend`). After a link
 * went out, or the server said to wait (429 with Retry-After), it rests that long, counting down, so the wait is seen.
 * A refusal is said by its "Error" toast (ERR-01), and the sign-in's refusal by its own: here only what they do not
 * say, that a link went out and how long to wait.
 */
export function ResendVerificationLink({ email, password }: ResendVerificationLinkProps) {
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const [waitUntil, setWaitUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const secondsLeft = Math.max(0, Math.ceil((waitUntil - now) / 1000));

  useEffect(() => {
    if (waitUntil <= Date.now()) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [waitUntil]);

  const rest = (seconds: number) => {
    setNow(Date.now());
    setWaitUntil(Date.now() + seconds * 1000);
  };
  const send = async () => {
    setBusy(true);
    setSent(null);
    try {
      const answer = await http.post<{ message: string }>('email-verify/resend', { email, password });
      setSent(answer.message);
      rest(VERIFY_LINK_RESEND_WAIT_S);
    } catch (error) {
      if (isApiError(error) && error.retryAfterSeconds) rest(error.retryAfterSeconds);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="resend-link">
      <p>Did the verification e-mail not arrive, or has its link expired?</p>
      <FormMessage kind="success" text={sent} />
      <button
        type="button"
        className="button button--block"
        disabled={busy || secondsLeft > 0}
        onClick={() => void send()}
      >
        {busy ? 'Sending…' : secondsLeft > 0 ? `Send the link again (in ${secondsLeft} s)` : 'Send the link again'}
      </button>
    </div>
  );
}
