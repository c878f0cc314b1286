/** A concrete path of a route: `/api/v1/roles/:id/permissions` -> `/api/v1/roles/1/permissions`. */
export const concrete = (url: string) => url.replace(/:[A-Za-z_]+/g, '1');

/** The ways a path can be spelled that a router may still match, or a string test may misread. */
export function spellings(path: string): string[] {
  const [, first = '', rest = ''] = /^\/([^/]+)(\/.*)?$/.exec(path) ?? [];
  const lastSegment = path.slice(path.lastIndexOf('/') + 1);
  const hex = (character: string) => `%${character.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
  const variants = [
    path,
    `/${hex(first[0] ?? 'a')}${first.slice(1)}${rest}`,
    `/${first.slice(0, 1)}${hex(first[1] ?? 'p')}${first.slice(2)}${rest}`,
    `/${first}${rest.replace(/\/(\w)/, (_match, character: string) => `/${hex(character)}`)}`,
    `/${[...path.slice(1)].map((character) => (character === '/' ? character : hex(character))).join('')}`,
    `/${first}%2F${rest.slice(1)}`,
    `/${path}`,
    `/${first}/${rest}`,
    path.replace(/\/([^/]*)$/, '//$1'),
    `${path}/`,
    `${path}.`,
    `${path}%2E`,
    path.toUpperCase(),
    `/${first.toUpperCase()}${rest}`,
    lastSegment ? path.replace(/[^/]+$/, (segment) => segment[0]!.toUpperCase() + segment.slice(1)) : path,
    `${path}?x=1`,
  ];
  return [...new Set(variants)];
}
