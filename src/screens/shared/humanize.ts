/** An enum value or key as words: "home_top" -> "Home top". */
export function humanize(value: string | number): string {
  const text = String(value).replace(/_/g, ' ').toLowerCase();
  return text.charAt(0).toUpperCase() + text.slice(1);
}
