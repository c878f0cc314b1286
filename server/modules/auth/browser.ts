/** A browser as people name it: "Chrome 126 on Windows", and the same without its version ("Chrome on Windows"). */
export interface BrowserDescription {
  description: string;
  family: string;
}

/** Most specific first: Edge and Opera say "Chrome" too, Chrome says "Safari", and so on. */
const BROWSERS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\b(?:OPR|Opera)\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
];

const SYSTEMS: ReadonlyArray<[name: string, pattern: RegExp]> = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

/**
 * Reads a User-Agent header into a short description. A small table rather than a parser library: the console needs
 * a name people recognise, not every device; what it does not know is "Unknown browser" (the raw header is kept too).
 */
export function describeBrowser(userAgent: string | undefined | null): BrowserDescription {
  const agent = userAgent ?? '';
  const browser = BROWSERS.map(([name, pattern]) => ({ name, match: pattern.exec(agent) })).find(({ match }) => match);
  const system = SYSTEMS.find(([, pattern]) => pattern.test(agent))?.[0];
  const name = browser?.name ?? 'Unknown browser';
  const on = system ? ` on ${system}` : '';
  return {
    description: `${name}${browser ? ` ${browser.match![1]}` : ''}${on}`,
    family: `${name}${on}`,
  };
}
