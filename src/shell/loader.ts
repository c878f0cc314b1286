let count = 0;
const listeners = new Set<() => void>();

function set(next: number): void {
  count = next;
  listeners.forEach((listener) => listener());
}

/**
 * The global loading counter (LOADER-02): every enable adds one, every disable takes one away, and the
 * overlay shows while the count is above zero.
 */
export const loader = {
  enable(): void {
    set(count + 1);
  },
  disable(): void {
    if (count <= 0) {
      // LOADER-03
      console.warn(
        'Loader: enable() and disable() must be called in pairs; the count went below zero and was reset to 0.',
      );
      set(0);
      return;
    }
    set(count - 1);
  },
  count: (): number => count,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};
