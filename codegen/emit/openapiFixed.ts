import { permissionSetSchema } from '../../contract/endpoints.ts';
import { MODULE } from '../../contract/modules.ts';
import { actionBody, type JsonSchema } from '../../contract/resources.ts';
import type { ProjectModel, ResourceModel } from '../../contract/description.ts';
import { notificationOperations, permissionOperations, profileOperations, sessionOperations, userVerificationOperations } from './openapiAccountOperations.ts';
import { dateTime, integer, modulesOf, nullableString, number, object, string } from './openapiFixedCommon.ts';
import { json, jsonBody, type OperationSpec } from './openapiOperation.ts';
import { isEntityResource } from './openapiResources.ts';
import { bannerOperations, subscriberOperations } from './openapiSubscriberOperations.ts';
import { reportOperations, uploadOperations } from './openapiTradeDataOperations.ts';

/** Component schemas the fixed endpoints share. */
export function fixedSchemas(model: ProjectModel): Record<string, unknown> {
  return {
    TokenPair: object({ access: { type: 'string', description: 'JWT (HS256) with sub, role, exp, iat, first_name, last_name, default_url.' }, refresh: string }),
    PermissionSet: { ...permissionSetSchema(modulesOf(model)), description: 'Module → the actions granted.' },
    Notification: object({ id: integer, message: { type: 'string', description: 'HTML; the console sanitises it.' }, created_at: dateTime, is_read: { type: 'boolean' } }),
    LedgerEntry: object(
      {
        id: integer,
        kind: { type: 'string', enum: ['subscription', 'top_up', 'consumption'] },
        points: integer,
        amount: number,
        balance_after: integer,
        note: nullableString,
        created_at: dateTime,
        subscriber_id: integer,
        idempotency_key: nullableString,
        subscription_id: { type: ['integer', 'null'] },
        created_by: { type: ['integer', 'null'] },
      },
      ['id', 'kind', 'points', 'amount', 'balance_after', 'note', 'created_at'],
    ),
  };
}

/**
 * The endpoints the server registers beside the generic ones (server/modules: auth, users and roles, profile, notifications,
 * subscribers, uploads, banners, reports routes and the document itself), with the same conditions on the manifest.
 * Request schemas come from contract/, which the routes validate with.
 */
export function fixedOperations(model: ProjectModel): OperationSpec[] {
  const resources = model.areas.flatMap((area) => area.resources);
  const find = (key: string) => resources.find((resource) => resource.key === key);
  const formBody = (resource: ResourceModel | undefined, action: string, serverOnly: Record<string, JsonSchema> = {}) => {
    const form = resource?.forms[action as keyof ResourceModel['forms']];
    return form ? { requestBody: jsonBody(actionBody(form.schema, serverOnly)) } : {};
  };
  const subscribers = find(MODULE.subscribers);
  const uploads = find(MODULE.dataUploadLogs);
  const banners = find(MODULE.banners);
  return [
    ...sessionOperations(),
    ...permissionOperations(model),
    ...userVerificationOperations(find(MODULE.users)),
    ...profileOperations(find(MODULE.userProfile), find(MODULE.changePassword), formBody),
    ...notificationOperations(),
    ...(subscribers && isEntityResource(subscribers) ? subscriberOperations(subscribers, find(MODULE.executiveProfile), formBody) : []),
    ...(uploads && isEntityResource(uploads) ? uploadOperations(uploads) : []),
    ...(banners ? bannerOperations(banners) : []),
    ...reportOperations(),
    { method: 'get', path: '/openapi.json', tag: 'API', summary: 'This document', access: 'public', answers: { '200': { description: 'The OpenAPI 3.1 document.', content: json({ type: 'object' }) } } },
    devMailboxOperation(),
  ];
}

/** The development mailbox (server/modules/mail/routes.ts). */
function devMailboxOperation(): OperationSpec {
  const message = object({
    id: integer,
    recipient: string,
    subject: string,
    text: string,
    links: { type: 'array', items: string },
    state: { type: 'string', enum: ['pending', 'sending', 'sent', 'failed'] },
    attempts: integer,
    created_at: dateTime,
    sent_at: { type: ['string', 'null'], format: 'date-time' },
    sent_via: { type: ['string', 'null'], enum: ['smtp', 'console', null] },
    last_error: nullableString,
  });
  const answer = {
    description: 'The newest 50 messages of the outbox, newest first, and how this server delivers them.',
    content: json(object({ data: { type: 'array', items: message }, meta: object({ delivery: { type: 'string', enum: ['smtp', 'console', 'none'] } }) })),
  };
  return { method: 'get', path: '/dev/mailbox', tag: 'Development', summary: 'The development mailbox', access: 'development', answers: { '200': answer } };
}
