import type { MailMessage } from '../mail/outbox.ts';
import { PRODUCT_NAME, noticeMessage } from './linkMessages.ts';

/** The e-mail a user is sent when an administrator resets their second factor. */
export function resetMessage(user: { email: string; first_name: string | null }): MailMessage {
  const lines = [
    user.first_name ? `Hello ${user.first_name},` : 'Hello,',
    `An administrator turned off two-factor sign-in on your ${PRODUCT_NAME} account (${user.email}). You now sign in with your password alone; your authenticator app's codes and your recovery codes no longer work.`,
    'To turn it on again, open your profile and enrol your authenticator app. If you did not ask for this, tell your administrator and change your password.',
    `— ${PRODUCT_NAME}`,
  ];
  return noticeMessage(user.email, `Two-factor sign-in was reset on your ${PRODUCT_NAME} account`, lines);
}
