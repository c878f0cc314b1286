/**
 * Go anywhere's shortcut, in the initial chunk so that it works from the first paint of the signed-in layout: Ctrl+K
 * (⌘K on a Mac) opens the palette, and every key typed from then until its box has focus (while its code loads) is kept
 * for the box: characters, Backspace, and Enter as a line break. The header's button says how the palette opens.
 * Kept small: every byte here is in the initial JS.
 */

type Show = (open: boolean) => void;

let show: Show | null = null;
/** undefined: the palette is closed; a string: asked for, the keys typed until its box takes them; null: open. */
let typed: string | null | undefined;

function onKeyDown(event: KeyboardEvent) {
  const { key } = event;
  const command = event.ctrlKey || event.metaKey;
  if (!show || event.isComposing) return;
  if (command && !event.altKey && !event.shiftKey && key.toLowerCase() === 'k') openGoAnywhere();
  else if (typed == null) return;
  else if (key === 'Escape') closeGoAnywhere();
  else if (key === 'Backspace') typed = typed.slice(0, -1);
  else if (key === 'Enter' || (key.length === 1 && !command)) typed += key === 'Enter' ? '\n' : key;
  else return;
  // A key kept for the palette is the palette's alone: no list shortcut or field below acts on it too.
  event.preventDefault();
  event.stopPropagation();
}

/** Listens for the shortcut from now on: at start, before anything renders. */
export function listenForGoAnywhere(): void {
  addEventListener('keydown', onKeyDown, true);
}

/** Opens the palette (the shortcut, the header's button), keeping what is typed until its box takes it. */
export function openGoAnywhere(): void {
  if (!show || typed !== undefined) return;
  typed = '';
  show(true);
}

export function closeGoAnywhere(): void {
  typed = undefined;
  show?.(false);
}

/** The header's button: how the palette is shown and hidden, until the returned function detaches it. */
export function attachGoAnywhere(showPalette: Show): () => void {
  show = showPalette;
  return () => {
    show = null;
    typed = undefined;
  };
}

/**
 * The palette's box, as it gets focus: what was typed for it, an Enter as a line break (open the first choice once the
 * search is done); nothing when it was not waited for.
 */
export function takeTypedAhead(): string | null | undefined {
  const taken = typed;
  typed = null;
  return taken;
}
