/**
 * The response header of every signed-in answer that names the version of the caller's permissions (their role and
 * its permission set as the server read them for that request). The console re-reads its permissions when it moves.
 */
export const PERMISSIONS_VERSION_HEADER = 'permissions-version';
