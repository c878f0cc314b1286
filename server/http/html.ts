/** Text made safe inside HTML (element content and quoted attributes): notifications and e-mail bodies. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
