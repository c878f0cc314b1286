/** ERR-07: production builds keep console.error only; log, info and warn are silenced. */
export function silenceConsole(production: boolean, target: Pick<Console, 'log' | 'info' | 'warn'> = console): void {
  if (!production) return;
  const silent = () => undefined;
  target.log = silent;
  target.info = silent;
  target.warn = silent;
}
