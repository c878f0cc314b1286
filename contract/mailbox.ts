/** What a queued e-mail is doing: waiting, claimed by an instance, delivered, or given up on. */
export type MailState = 'pending' | 'sending' | 'sent' | 'failed';

/** One message as `GET dev/mailbox` lists it: the server writes it, the development mailbox screen shows it. */
export interface MailboxEntry {
  id: number;
  recipient: string;
  subject: string;
  text: string;
  links: string[];
  state: MailState;
  attempts: number;
  created_at: string;
  sent_at: string | null;
  sent_via: 'smtp' | 'console' | null;
  last_error: string | null;
}
