/** A field or key name in words, as a title the manifest does not give: `valid_until` -> "Valid until", `role_id` -> "Role". */
export function humanise(name: string): string {
  const words = name.replace(/_id$/, '').split('_').join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
