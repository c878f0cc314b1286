/** The versioned API base every call goes to (HTTP-01), always ending in one slash: /api + v1 → /api/v1/. */
export function apiBaseUrl(base: string | undefined, version: string | undefined): string {
  const trimmedBase = (base?.trim() || '/api').replace(/\/+$/, '');
  const trimmedVersion = (version?.trim() || 'v1').replace(/^\/+|\/+$/g, '');
  return `${trimmedBase}/${trimmedVersion}/`;
}
