/** The one place results become exit codes. */
export const EXIT = { ok: 0, invalidOrStale: 1, usage: 2 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
