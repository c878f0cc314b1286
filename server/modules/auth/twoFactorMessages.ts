import type { MailMessage } from '../mail/outbox.ts';
import { PRODUCT_NAME, noticeMessage } from './linkMessages.ts';

/** What an administrator's reset removed: whether the authenticator app was on, and how many passkeys went. */
export interface ResetRemoved {
  app: boolean;
  passkeys: number;
}

/** What no longer works, in words: "your authenticator app's codes, your recovery codes and your 2 passkeys no longer work". */
function noLongerWork({ app, passkeys }: ResetRemoved): string {
  const parts = app ? ["your authenticator app's codes", 'your recovery codes'] : [];
  if (passkeys > 0) parts.push(passkeys === 1 ? 'your passkey' : `your ${passkeys} passkeys`);
  if (parts.length === 1) return `${parts[0]} no longer ${passkeys === 1 && !app ? 'works' : 'work'}`;
  return `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)} no longer work`;
}

/** The e-mail a user is sent when an administrator resets their second factors. */
export function resetMessage(user: { email: string; first_name: string | null }, removed: ResetRemoved): MailMessage {
  const lines = [
    user.first_name ? `Hello ${user.first_name},` : 'Hello,',
    `An administrator turned off two-factor sign-in on your ${PRODUCT_NAME} account (${user.email}). You were signed out everywhere and now sign in with your password alone; ${noLongerWork(removed)}.`,
    'To turn it on again, open your profile and set up your authenticator app or add a passkey. If you did not ask for this, tell your administrator and change your password.',
    `— ${PRODUCT_NAME}`,
  ];
  return noticeMessage(user.email, `Two-factor sign-in was reset on your ${PRODUCT_NAME} account`, lines);
}
