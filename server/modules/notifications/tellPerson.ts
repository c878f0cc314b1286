import type { Queryable } from '../../db/database.ts';
import { escapeHtml } from '../../http/html.ts';
import { queueMail } from '../mail/outbox.ts';
import { notify } from './store.ts';

/** Someone told of news: an active user, as the query choosing them reads them. */
export type Listener = {
  id: number;
  email: string;
  first_name: string | null;
};

/** News about one record, in words and with the console path of its screen. */
export interface News {
  /** The e-mail's subject. */
  subject: string;
  /** The news as HTML (names in bold, escaped by the caller): the console's line and the e-mail's paragraph. */
  html: string;
  /** The same in plain words, for the e-mail's text. */
  text: string;
  /** The console path of the record's screen; null: none. */
  link: string | null;
  /** What the e-mail's link opens: "the subscriber", "the upload". */
  opens: string;
}

/**
 * Tells one person of news about a record, in the caller's transaction (the e-mail leaves only if it commits): a
 * notification in the console linking to the record, and an e-mail with the same words and the link on `origin`.
 */
export async function tellPerson(tx: Queryable, person: Listener, news: News, origin: string): Promise<void> {
  const url = `${origin}${news.link ?? ''}`;
  const greeting = person.first_name ?? '';
  await notify(tx, Number(person.id), news.html, news.link);
  await queueMail(tx, {
    to: person.email,
    subject: news.subject,
    text: `Hello ${greeting},\n\n${news.text}\n\nOpen ${news.opens}: ${url}\n`,
    html: `<p>Hello ${escapeHtml(greeting)},</p><p>${news.html}</p><p><a href="${escapeHtml(url)}">Open ${escapeHtml(news.opens)}</a></p>`,
    expiresAt: null,
  });
}
