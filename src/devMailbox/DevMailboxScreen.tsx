import { useCallback, useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { DEV_MAILBOX_REFRESH_MS } from '../config/constants.ts';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import type { MailboxEntry } from '../../contract/mailbox.ts';
import { MailboxMessage } from './MailboxMessage.tsx';
import './DevMailboxScreen.css';

interface MailboxAnswer {
  data: MailboxEntry[];
  meta: { delivery: 'smtp' | 'console' | 'none' };
}

const DELIVERY: Record<MailboxAnswer['meta']['delivery'], string> = {
  smtp: 'This server also sends them through its mail server (SMTP_URL).',
  console:
    'This server has no mail server (SMTP_URL), so nothing leaves it: each message is printed on its console and listed here.',
  none: 'This server sends no e-mail.',
};

/**
 * /dev/mailbox, in development builds only: the e-mail the server wrote, newest first, with their links, so a developer
 * can reset a password or verify an address without a mail server (docs/api.md, "E-mail").
 */
export function DevMailboxScreen() {
  const [mailbox, setMailbox] = useState<MailboxAnswer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setMailbox(await http.get<MailboxAnswer>('dev/mailbox', { loader: false }));
      setProblem(null);
    } catch (error) {
      setProblem(isApiError(error) ? error.message : 'The mailbox could not be read.');
    }
  }, []);

  useEffect(() => {
    void load();
    const timer = setInterval(() => void load(), DEV_MAILBOX_REFRESH_MS);
    return () => clearInterval(timer);
  }, [load]);

  return (
    <section className="dev-mailbox" aria-labelledby="dev-mailbox-title">
      <header className="dev-mailbox__header">
        <h1 id="dev-mailbox-title">Development mailbox</h1>
        <button type="button" className="button" onClick={() => void load()}>
          Refresh
        </button>
      </header>
      <p className="dev-mailbox__intro">
        The e-mail this server wrote, newest first. {mailbox && DELIVERY[mailbox.meta.delivery]} Servers in production
        have no such page.
      </p>
      {problem && (
        <p className="form-message form-message-error" role="alert">
          {problem}
        </p>
      )}
      {mailbox && mailbox.data.length === 0 && (
        <p role="status">
          No e-mail yet. Ask for a password reset (<Link to="/auth/forgot-password">Forgot password</Link>) or create a
          user, and it shows here.
        </p>
      )}
      {mailbox && mailbox.data.length > 0 && (
        <ol className="dev-mailbox__list" aria-label="Messages">
          {mailbox.data.map((message) => (
            <MailboxMessage key={message.id} message={message} />
          ))}
        </ol>
      )}
      <p className="auth-links">
        <Link to="/auth/login">Go to sign in</Link>
      </p>
    </section>
  );
}
