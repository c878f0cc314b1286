/**
 * Resolves with the first value `look` gives that is not false, null or undefined, asking every 25 ms; fails after
 * `timeoutMs`, naming `what`. Tests wait for a condition with it, never for a fixed time.
 */
export async function until<T>(
  look: () => T | Promise<T>,
  what: string,
  timeoutMs = 60_000,
): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await look();
    if (found !== false && found !== null && found !== undefined) return found as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
