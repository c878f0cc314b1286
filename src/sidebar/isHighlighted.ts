const segments = (path: string) => path.split(/[?#]/)[0]!.split('/').filter(Boolean);

/** SIDEBAR-06: a link is highlighted when the current address contains its first two path segments. */
export function isHighlighted(pathname: string, link: string): boolean {
  const wanted = segments(link).slice(0, 2);
  const current = segments(pathname);
  return wanted.length > 0 && wanted.every((segment, index) => current[index] === segment);
}
