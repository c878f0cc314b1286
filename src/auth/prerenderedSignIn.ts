import { PRERENDERED_SIGN_IN_ID } from '../../contract/signInPage.ts';

const prerendered = () => document.getElementById(PRERENDERED_SIGN_IN_ID);

/**
 * The live sign-in form takes the place of the prerendered one: what was typed there is handed to `fill` field by
 * field, the field that had the focus keeps it, with its caret, a submit the page's guard held is sent now (once the
 * values are in), and the prerendered copy goes. Nothing happens without one.
 */
export function takeOverPrerenderedSignIn(form: HTMLFormElement, fill: (name: string, value: string) => void): void {
  const container = prerendered();
  if (!container) return;
  for (const input of container.querySelectorAll<HTMLInputElement>('input[name]'))
    if (input.value !== '') fill(input.name, input.value);
  const active = document.activeElement;
  const held = container.querySelector('form[data-submitted]') !== null;
  // First: the console's root is hidden while the prerendered form is there, and nothing hidden takes the focus.
  container.remove();
  if (active instanceof HTMLInputElement && container.contains(active)) {
    const live = form.elements.namedItem(active.name);
    if (live instanceof HTMLInputElement) {
      live.focus();
      // E-mail inputs have no selection to copy (their selection API throws).
      if (live.type !== 'email') live.setSelectionRange(active.selectionStart, active.selectionEnd);
    }
  }
  if (held) queueMicrotask(() => form.requestSubmit());
}

/** The console shows another screen first (a signed-in visitor is sent on): the prerendered form goes. */
export function dropPrerenderedSignIn(): void {
  prerendered()?.remove();
}
