import { sendEmailLink } from '../auth/emailLinks.ts';
import { revokeAllSessions } from '../auth/sessions.ts';
import { conflict, validationError } from '../../http/errors.ts';
import type { ResourceBehaviour } from '../resources/behaviours.ts';
import { keepingFullAccess } from './fullAccess.ts';

export const userBehaviour: ResourceBehaviour = {
  async guard(changes, { tx, user }, write) {
    for (const change of changes) {
      if (!user || change.kind === 'create' || !change.ids.includes(user.id)) continue;
      if (change.kind === 'delete') throw conflict('You cannot delete your own account.');
      if (change.kind !== 'update') continue;
      if (change.body.is_active === false) throw conflict('You cannot deactivate your own account.');
      if (change.body.role_id !== undefined && change.body.role_id !== user.roleId)
        throw validationError({ role_id: 'You cannot change your own role.' });
    }
    return keepingFullAccess(tx, write);
  },
  async prepare(values, { body }, { app }) {
    if (typeof values.email === 'string') values.email = values.email.toLowerCase();
    if (typeof body.password === 'string') values.password_hash = await app.passwords.hash(body.password);
  },
  // A new user signs in once they have opened the link sent to their address (docs/api.md, "E-mail"); created without
  // a password, as the console creates them, they choose it with that link.
  async afterCreate(id, body, { app, tx }) {
    const firstName = typeof body.first_name === 'string' ? body.first_name : null;
    const recipient = {
      id,
      email: String(body.email).toLowerCase(),
      first_name: firstName,
      password_set: typeof body.password === 'string',
    };
    await sendEmailLink(app, tx, recipient, 'verify_email');
  },
  async afterUpdate(ids, body, { tx, user }) {
    // A new password ends the user's other sessions; the admin's own session stays when they change their own.
    if (typeof body.password !== 'string') return;
    for (const id of ids) await revokeAllSessions(tx, id, id === user?.id ? user.sessionId : undefined);
  },
};

export const roleBehaviour: ResourceBehaviour = {
  async guard(_change, { tx }, write) {
    return keepingFullAccess(tx, write);
  },
};
