import { Link } from 'react-router-dom';
import type { MailboxEntry } from '../../contract/mailbox.ts';
import { formatDate } from '../screens/shared/formatValue.ts';

function deliveryText(message: MailboxEntry): string {
  if (message.state === 'sent')
    return message.sent_via === 'smtp' ? 'Sent through the mail server' : 'Printed on the server console';
  if (message.state === 'failed') return `Not delivered: ${message.last_error ?? 'no reason recorded'}`;
  if (message.attempts === 0) return 'Waiting to be sent';
  return `Not sent yet after ${message.attempts} attempt(s)${message.last_error ? `: ${message.last_error}` : ''}; trying again`;
}

/** A link of a message: a console screen opens here, on this origin, whatever origin the e-mail names. */
function MessageLink({ href }: { href: string }) {
  const url = new URL(href);
  const inConsole = url.pathname.startsWith('/auth/');
  return inConsole ? <Link to={`${url.pathname}${url.search}`}>{href}</Link> : <a href={href}>{href}</a>;
}

export function MailboxMessage({ message }: { message: MailboxEntry }) {
  const titleId = `mail-${message.id}-subject`;
  return (
    <li className="mailbox-message">
      <article aria-labelledby={titleId}>
        <h2 id={titleId}>{message.subject}</h2>
        <dl className="mailbox-message__facts">
          <dt>To</dt>
          <dd>{message.recipient}</dd>
          <dt>Written</dt>
          <dd>
            <time dateTime={message.created_at}>{formatDate(message.created_at, true)}</time>
          </dd>
          <dt>Delivery</dt>
          <dd className={`mailbox-message__state mailbox-message__state--${message.state}`}>{deliveryText(message)}</dd>
        </dl>
        {message.links.length > 0 && (
          <ul className="mailbox-message__links" aria-label={`Links in "${message.subject}"`}>
            {message.links.map((link) => (
              <li key={link}>
                <MessageLink href={link} />
              </li>
            ))}
          </ul>
        )}
        <details>
          <summary>The whole message</summary>
          <pre className="mailbox-message__text">{message.text}</pre>
        </details>
      </article>
    </li>
  );
}
