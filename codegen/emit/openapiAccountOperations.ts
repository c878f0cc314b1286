import {
  checkLinkBody,
  emailVerifyBody,
  forgetPasswordBody,
  loginBody,
  logoutBody,
  markAllReadBody,
  notificationQuery,
  notificationReadBody,
  refreshBody,
  resendVerificationBody,
  resetPasswordBody,
  rolePermissionsBody,
  userVerificationLinkBody,
} from '../../contract/endpoints.ts';
import { MODULE } from '../../contract/modules.ts';
import { idParams } from '../../contract/resources.ts';
import type { ProjectModel, ResourceModel } from '../../contract/description.ts';
import { type FormBody, integer, modulesOf, nullableString, object, string } from './openapiFixedCommon.ts';
import { dataAnswer, ETAG_HEADER, jsonBody, listAnswer, messageAnswer, type OperationSpec, ref } from './openapiOperation.ts';

// The fixed endpoints of the session, the roles' permissions, the profile and notifications.
export function sessionOperations(): OperationSpec[] {
  const tag = 'Session';
  const tokens = dataAnswer('A new access and refresh token.', ref('TokenPair'));
  return [
    {
      method: 'post',
      path: '/login',
      tag,
      summary: 'Log in',
      access: 'public',
      notes: 'Repeated failures for an e-mail are throttled (429). The right password for an address not verified yet answers 403.',
      requestBody: jsonBody(loginBody),
      answers: {
        '200': tokens,
        '401': { $ref: '#/components/responses/Unauthorized' },
        '403': messageAnswer('The e-mail address is not verified yet: open the e-mailed link, or `email-verify/resend`.'),
      },
      errors: [429],
    },
    {
      method: 'post',
      path: '/token/refresh',
      tag,
      summary: 'Rotate the refresh token',
      access: 'public',
      notes: 'A refresh token used twice revokes its whole family (401).',
      requestBody: jsonBody(refreshBody),
      answers: { '200': tokens, '401': { $ref: '#/components/responses/Unauthorized' } },
    },
    {
      method: 'post',
      path: '/logout',
      tag,
      summary: 'Log out',
      access: 'public',
      optionalToken: true,
      notes: 'Revokes the session of the Bearer token, if any, and the family of `refresh`, if sent; works with an expired token too.',
      requestBody: jsonBody(logoutBody),
      answers: { '200': messageAnswer('Logged out.') },
    },
    {
      method: 'post',
      path: '/forget_password',
      tag,
      summary: 'Send a password reset link',
      access: 'public',
      notes: 'The same answer whether or not the e-mail has an account; one link a minute and 5 an hour per account at most (silently).',
      requestBody: jsonBody(forgetPasswordBody),
      answers: { '200': messageAnswer('A link was sent if the account exists.') },
    },
    {
      method: 'post',
      path: '/check-link',
      tag,
      summary: 'Check a password reset link',
      access: 'public',
      notes: 'An expired or used link is a 400.',
      requestBody: jsonBody(checkLinkBody),
      answers: { '200': dataAnswer('The link is valid.', object({ valid: { const: true }, email: string })) },
    },
    {
      method: 'post',
      path: '/reset_password',
      tag,
      summary: 'Choose a new password with a reset link',
      access: 'public',
      notes: 'The link works once; every session of the user ends.',
      requestBody: jsonBody(resetPasswordBody),
      answers: { '200': messageAnswer('Password changed.') },
    },
    {
      method: 'post',
      path: '/email-verify',
      tag,
      summary: 'Verify an e-mail address',
      access: 'public',
      requestBody: jsonBody(emailVerifyBody),
      answers: { '200': messageAnswer('Address verified.') },
    },
    {
      method: 'post',
      path: '/email-verify/resend',
      tag,
      summary: 'Send the verification link again',
      access: 'public',
      notes: 'With the credentials a sign-in refused for an unverified address; throttled as sign-in is, and one link a minute and 5 an hour per account (429).',
      requestBody: jsonBody(resendVerificationBody),
      answers: { '200': messageAnswer('Sent, or the address is already verified.'), '401': { $ref: '#/components/responses/Unauthorized' } },
      errors: [429],
    },
  ];
}

/** An administrator's view of a user's e-mail verification, and the link sent again. */
export function userVerificationOperations(users: ResourceModel | undefined): OperationSpec[] {
  const tag = users?.label ?? 'Users';
  const status = object({ email: string, verified_at: nullableString, last_link_sent_at: nullableString, last_link_expires_at: nullableString });
  return [
    {
      method: 'get',
      path: '/users/{id}/email-verification',
      tag,
      summary: 'Whether a user has verified their address',
      access: { module: MODULE.users, action: 'view_detail' },
      params: idParams,
      answers: { '200': dataAnswer('The address, when it was verified, and the last link sent.', status) },
      errors: [404],
    },
    {
      method: 'post',
      path: '/users/{id}/email-verification',
      tag,
      summary: 'Send a user the verification link again',
      access: { module: MODULE.users, action: 'edit' },
      notes: '409 when the address is verified or the user inactive; 5 links an hour per user at most (429).',
      params: idParams,
      requestBody: jsonBody(userVerificationLinkBody),
      answers: { '200': dataAnswer('Sent; the new state.', status, true) },
      errors: [404, 409, 429],
    },
  ];
}

export function permissionOperations(model: ProjectModel): OperationSpec[] {
  const action = object({ is_routable: { type: 'boolean' }, route_url: string });
  const permissionMap = {
    type: 'object',
    description: 'Module → its order and the granted actions with their routes.',
    additionalProperties: object({ order: integer, actions: { type: 'object', additionalProperties: action } }),
  };
  const roles = model.areas.flatMap((area) => area.resources).find((resource) => resource.key === MODULE.roles);
  const tag = roles?.label ?? 'Roles';
  return [
    { method: 'get', path: '/user/permission', tag: 'Session', summary: 'The caller\'s permissions', access: 'signed-in', answers: { '200': dataAnswer('Built from the role on every call.', permissionMap) } },
    {
      method: 'get',
      path: '/roles/{id}/permissions',
      tag,
      summary: 'A role\'s permission set',
      access: { module: MODULE.roles, action: 'view' },
      params: idParams,
      answers: { '200': { ...dataAnswer('The granted actions by module; `ETag` is the role\'s version, which the set shares.', ref('PermissionSet')), ...ETAG_HEADER } },
      errors: [404],
    },
    {
      method: 'put',
      path: '/roles/{id}/permissions',
      tag,
      summary: 'Replace a role\'s permission set',
      access: { module: MODULE.roles, action: 'edit' },
      notes:
        'Applies when the role\'s users next load `user/permission`. `If-Match` is the role\'s version as read; any change to a permission set moves every role\'s version on.',
      params: idParams,
      requestBody: jsonBody(rolePermissionsBody(modulesOf(model))),
      answers: { '200': { ...dataAnswer('Saved; `ETag` is the role\'s new version.', ref('PermissionSet'), true), ...ETAG_HEADER } },
      errors: [404],
      ifMatch: true,
    },
  ];
}

export function profileOperations(userProfile: ResourceModel | undefined, changePassword: ResourceModel | undefined, formBody: FormBody): OperationSpec[] {
  const tag = userProfile?.label ?? 'Profile';
  const profile = object({ id: integer, first_name: string, last_name: string, email: string, mobile: nullableString, role: nullableString });
  return [
    { method: 'get', path: '/user/profile', tag, summary: 'The caller\'s profile', access: { module: MODULE.userProfile, action: 'view' }, answers: { '200': dataAnswer('The profile.', profile) } },
    {
      method: 'put',
      path: '/user/profile',
      tag,
      summary: 'Edit the caller\'s profile',
      access: { module: MODULE.userProfile, action: 'edit' },
      notes: `The body is the whole editable profile (${MODULE.userProfile}'s form \`edit\`): an optional field left out is cleared.`,
      ...formBody(userProfile, 'edit'),
      answers: { '200': dataAnswer('Updated.', profile, true) },
    },
    {
      method: 'post',
      path: '/user/change-password',
      tag: changePassword?.label ?? tag,
      summary: 'Change the caller\'s password',
      access: { module: MODULE.changePassword, action: 'edit' },
      notes: `${MODULE.changePassword}'s form \`edit\`; the caller's other sessions end.`,
      ...formBody(changePassword, 'edit'),
      answers: { '200': messageAnswer('Changed.') },
    },
  ];
}

export function notificationOperations(): OperationSpec[] {
  const tag = 'Notifications';
  return [
    { method: 'get', path: '/notification', tag, summary: 'The caller\'s notifications', access: 'signed-in', notes: 'Newest first.', query: notificationQuery, answers: { '200': listAnswer('A page of notifications.', ref('Notification')) } },
    {
      method: 'post',
      path: '/notification',
      tag,
      summary: 'Mark a notification read',
      access: 'signed-in',
      requestBody: jsonBody(notificationReadBody),
      answers: { '200': dataAnswer('Marked read.', ref('Notification'), true) },
      errors: [404],
    },
    {
      method: 'post',
      path: '/notification/mark-all-as-read',
      tag,
      summary: 'Mark every notification read',
      access: 'signed-in',
      requestBody: jsonBody(markAllReadBody),
      answers: { '200': dataAnswer('Marked read.', object({ updated: integer }), true) },
    },
  ];
}
