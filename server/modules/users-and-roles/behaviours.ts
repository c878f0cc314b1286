import { createEmailLink, emailLinkUrl, sendMail } from '../auth/emailLinks.ts';
import { publicOrigin } from '../auth/routes.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { conflict, validationError } from '../../http/errors.ts';
import type { ResourceBehaviour } from '../resources/behaviours.ts';
import { keepingFullAccess } from './fullAccess.ts';

export const userBehaviour: ResourceBehaviour = {
  async guard(change, { tx, user }, write) {
    const own = change.kind === 'update' ? change.id === user.id : change.ids.includes(user.id);
    if (own && change.kind === 'status' && !change.isActive) throw conflict('You cannot deactivate your own account.');
    if (own && change.kind === 'delete') throw conflict('You cannot delete your own account.');
    if (own && change.kind === 'update' && change.body.role_id !== undefined && change.body.role_id !== user.roleId) {
      throw validationError({ role_id: 'You cannot change your own role.' });
    }
    return keepingFullAccess(tx, write);
  },
  async prepare(values, body, { app }) {
    if (typeof values.email === 'string') values.email = values.email.toLowerCase();
    if (typeof body.password === 'string') values.password_hash = await app.passwords.hash(body.password);
  },
  async afterCreate(id, body, { app, tx }) {
    const token = await createEmailLink(tx, id, 'verify_email', 7 * 24 * 3600);
    await sendMail(tx, String(body.email), 'Verify your email address', `Open this link to verify your address: ${emailLinkUrl(publicOrigin(app), 'verify_email', token)}`);
  },
  async afterUpdate(id, body, { tx, user }) {
    // A new password ends the user's other sessions; the admin's own session stays when they change their own.
    if (typeof body.password === 'string') await revokeAllSessions(tx, id, id === user.id ? user.sessionId : undefined);
  },
};

export const roleBehaviour: ResourceBehaviour = {
  async guard(_change, { tx }, write) {
    return keepingFullAccess(tx, write);
  },
};
