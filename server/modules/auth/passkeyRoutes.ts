import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorAnswers, messageAnswer } from '../../http/answers.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { actorOf } from '../audit/record.ts';
import { currentUser } from './access.ts';
import {
  listPasskeys,
  registerPasskey,
  registrationOptions,
  relyingParty,
  removePasskey,
  renamePasskey,
} from './passkeys.ts';
import { optionsAnswer, passkeyAnswer, passkeysAnswer, registrationBody, renameBody } from './passkeySchemas.ts';
import { hasSecondFactor, roleRequiresTwoFactor } from './twoFactor.ts';
import { LAST_FACTOR } from './twoFactorRoutes.ts';
import { auditUser } from './userAudit.ts';

const REFUSED_TEXT = 'This passkey could not be added. Try again.';

/** A user's passkeys from their profile (docs/api.md, "Passkeys"); adding one is also an enrolment a role may require. */
export async function passkeyRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const rp = relyingParty(app);
  const tags = ['Session'];
  const own = (request: FastifyRequest) => currentUser(request).id;

  app.get('/user/passkeys', {
    config: { access: 'enrolling' },
    schema: {
      tags,
      operationId: 'listPasskeys',
      summary: "The caller's passkeys",
      response: { 200: passkeysAnswer, ...errorAnswers(401) },
    },
    handler: async (request) => ({ data: await listPasskeys(db, own(request)) }),
  });

  app.post('/user/passkeys/registration-options', {
    config: {
      access: 'enrolling',
      audit: { none: 'Keeps a challenge for the browser to sign; adding the passkey (POST user/passkeys) is audited.' },
    },
    schema: {
      tags,
      operationId: 'passkeyRegistrationOptions',
      summary: 'Start adding a passkey',
      description:
        "Options for `navigator.credentials.create`: a discoverable credential of this site's relying party.",
      response: { 200: optionsAnswer, ...errorAnswers(401) },
    },
    handler: async (request) => {
      const user = currentUser(request);
      const name = `${user.firstName} ${user.lastName}`.trim();
      return { data: await registrationOptions(db, rp, { id: user.id, email: user.email, name }) };
    },
  });

  app.post<{ Body: { name: string; response: RegistrationResponseJSON } }>('/user/passkeys', {
    config: { access: 'enrolling', audit: { action: 'passkey_added' } },
    schema: {
      tags,
      operationId: 'addPasskey',
      summary: 'Add a passkey',
      description:
        'With what `navigator.credentials.create` answered to the last options: their challenge (once, within 5 minutes), this origin and relying party. 400 `errors.response` when refused.',
      body: registrationBody,
      response: { 200: passkeyAnswer, ...errorAnswers(400, 401) },
    },
    handler: async (request) => {
      const userId = own(request);
      // The challenge is spent even when the passkey is refused: the transaction keeps that, then the refusal follows.
      const saved = await db.transaction(async (tx) => {
        const passkey = await registerPasskey(tx, rp, userId, request.body.name, request.body.response);
        if (passkey) await auditUser(tx, actorOf(request), userId, 'passkey_added', { passkey: passkey.name });
        return passkey;
      });
      if (!saved) throw new HttpError(400, REFUSED_TEXT, { response: REFUSED_TEXT });
      return { data: saved, message: `Passkey "${saved.name}" added. You can sign in with it.` };
    },
  });

  app.patch<{ Params: { id: number }; Body: { name: string } }>('/user/passkeys/:id', {
    config: { access: 'signed-in', audit: { action: 'passkey_renamed' } },
    schema: {
      tags,
      operationId: 'renamePasskey',
      summary: 'Rename a passkey',
      params: idParams,
      body: renameBody,
      response: { 200: passkeyAnswer, ...errorAnswers(400, 401, 404) },
    },
    handler: async (request) => {
      const userId = own(request);
      const renamed = await db.transaction(async (tx) => {
        const passkey = await renamePasskey(tx, userId, request.params.id, request.body.name);
        if (!passkey) throw notFound('Passkey');
        await auditUser(tx, actorOf(request), userId, 'passkey_renamed', { passkey: passkey.name });
        return passkey;
      });
      return { data: renamed, message: 'Passkey renamed.' };
    },
  });

  app.delete<{ Params: { id: number } }>('/user/passkeys/:id', {
    config: { access: 'signed-in', audit: { action: 'passkey_removed' } },
    schema: {
      tags,
      operationId: 'removePasskey',
      summary: 'Remove a passkey',
      description: 'It signs in no more. 409 when it is the last second factor of a user whose role requires one.',
      params: idParams,
      response: { 200: messageAnswer('Removed.'), ...errorAnswers(400, 401, 404, 409) },
    },
    handler: async (request) => {
      const userId = own(request);
      const name = await db.transaction(async (tx) => {
        const removed = await removePasskey(tx, userId, request.params.id);
        if (removed === null) throw notFound('Passkey');
        if ((await roleRequiresTwoFactor(tx, userId)) && !(await hasSecondFactor(tx, userId))) throw LAST_FACTOR();
        await auditUser(tx, actorOf(request), userId, 'passkey_removed', { passkey: removed });
        return removed;
      });
      return { message: `Passkey "${name}" removed.` };
    },
  });
}
