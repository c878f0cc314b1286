/**
 * Where a resource's trash is shown: beside its list, e.g. /masters/countries/trash. The route table the generator
 * writes and the list's link to it both read it here (a file of its own, so the console's area chunks stay as small).
 */
export function trashPath(listPath: string): string {
  return `${listPath}/trash`;
}
