import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The README and every document under docs/, as paths from `root`. */
export function documents(root: string): string[] {
  const found = ['README.md'];
  const walk = (folder: string) => {
    for (const name of readdirSync(join(root, folder)).sort()) {
      const path = join(folder, name);
      if (statSync(join(root, path)).isDirectory()) walk(path);
      else if (name.endsWith('.md')) found.push(path);
    }
  };
  walk('docs');
  return found;
}

/** The text without its fenced code blocks and inline code, where brackets and paths are not links. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of a document's links and images (`[text](target)`, `![alt](target)`), as written. */
export function linkTargets(text: string): string[] {
  return [...prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!);
}

/** The anchors GitHub gives a document's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.replace(/^```[\s\S]*?^```/gm, '').matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading!
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/** Each link of `document` (a path from `root`) to a file, folder or heading of the repository that is not there. */
export function brokenLinks(root: string, document: string): string[] {
  const text = readFileSync(join(root, document), 'utf8');
  const broken: string[] = [];
  for (const target of linkTargets(text)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not the repository's
    const [path = '', anchor] = target.split('#');
    const file = path === '' ? join(root, document) : join(root, dirname(document), decodeURIComponent(path));
    if (!existsSync(file)) broken.push(`${document}: ${target} (no ${relative(root, file)})`);
    else if (anchor !== undefined && !headingAnchors(readFileSync(file, 'utf8')).has(anchor))
      broken.push(`${document}: ${target} (no heading #${anchor})`);
  }
  return broken;
}

const TOP_FOLDERS = ['src', 'server', 'codegen', 'cli', 'contract', 'validation', 'tests', 'bench', 'docs', 'manifest'];

/**
 * The repository paths a document names in code spans (`server/app.ts`, `src/routing/`) and in its drawings (fenced
 * blocks) that do not exist. Only paths from a top folder are judged, and not patterns (`<area>`, `NNNN`, `*`, `...`).
 */
export function missingPaths(root: string, document: string): string[] {
  const text = readFileSync(join(root, document), 'utf8');
  const tops = TOP_FOLDERS.join('|');
  const inSpans = [...text.matchAll(new RegExp(`\`((?:${tops})/[^\`\\s]*)\``, 'g'))].map((match) => match[1]!);
  const inBlocks = [...text.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].flatMap(([, block]) =>
    [...block!.matchAll(new RegExp(`(?<![\\w/.-])(?:${tops})/[\\w./<>*-]*`, 'g'))].map((match) =>
      match[0].replace(/\.+$/, ''),
    ),
  );
  return [...new Set([...inSpans, ...inBlocks])]
    .filter((path) => !/[<>*…]|NNN|\.\.\./.test(path))
    .filter((path) => !existsSync(join(root, path.split('#')[0]!)))
    .map((path) => `${document}: ${path}`);
}
