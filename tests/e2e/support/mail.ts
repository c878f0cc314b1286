import type { DeliveredMail } from '../../../server/modules/mail/testing/smtpTestServer.ts';
import { Api } from './api.ts';
import { CONTROL_URL } from './env.ts';

/** The e-mail the run's SMTP server received for `email` so far, oldest first (tests/e2e/run.mjs). */
async function delivered(email: string): Promise<DeliveredMail[]> {
  const response = await fetch(`${CONTROL_URL}/mail?to=${encodeURIComponent(email)}`, {
    signal: AbortSignal.timeout(10_000),
  });
  return ((await response.json()) as { data: DeliveredMail[] }).data;
}

/**
 * The `count`-th e-mail delivered to `email` (1: the first), waiting for the API's delivery worker to send it through
 * SMTP (it looks every 2 s).
 */
export async function deliveredMail(email: string, count = 1, timeoutMs = 20_000): Promise<DeliveredMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mail = await delivered(email);
    if (mail.length >= count) return mail[count - 1]!;
    if (Date.now() > deadline)
      throw new Error(`${mail.length} e-mail(s) delivered to ${email} within ${timeoutMs} ms, waiting for ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The link of a delivered e-mail, as a path on the console's origin (the e-mail names the server's PUBLIC_URL). */
export function linkPath(mail: DeliveredMail): string {
  const link = mail.links[0];
  if (!link) throw new Error(`no link in "${mail.subject}"`);
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** Verifies a new user's address as they would: the link of the verification e-mail delivered to them, posted. */
export async function verifyAddress(email: string): Promise<void> {
  const mail = await deliveredMail(email);
  const token = new URL(mail.links[0]!).searchParams.get('token');
  await new Api().post('email-verify', { token });
}
