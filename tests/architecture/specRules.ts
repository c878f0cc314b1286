import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** The rule IDs that docs/spec/rules.md defines, in its order: each on a line of its own, `- SESSION-03 ...`. */
export function definedRules(rulesText: string): string[] {
  return [...rulesText.matchAll(/^- ([A-Z]+-\d{2}) /gm)].map((match) => match[1]!);
}

/**
 * Every rule ID a text names, of the families `families` (the prefixes rules.md uses: `PERM`, `SESSION`, ...), with
 * the shorthands comments use spelt out: `ERR-03..06` names ERR-03 to ERR-06, `SESSION-06/07/10` names three.
 */
export function namedRules(text: string, families: ReadonlySet<string>): string[] {
  const found = new Set<string>();
  const pattern = new RegExp(`\\b(${[...families].join('|')})-(\\d+)((?:(?:\\.\\.|/)\\d+)*)`, 'g');
  for (const [, family, first, rest] of text.matchAll(pattern)) {
    const width = first!.length;
    const name = (number: number) => `${family}-${String(number).padStart(width, '0')}`;
    let last = Number(first);
    found.add(name(last));
    for (const [, separator, next] of rest!.matchAll(/(\.\.|\/)(\d+)/g)) {
      const to = Number(next);
      if (separator === '..') for (let number = last + 1; number <= to; number += 1) found.add(name(number));
      else found.add(name(to));
      last = to;
    }
  }
  return [...found];
}

const SKIPPED = new Set(['node_modules', '.git', 'dist', 'coverage', '.data', '.tmp', 'screenshots']);
const TEXT = /\.(c|m)?[jt]sx?$|\.(json|md|css|html|sql)$/;

/** The repository's text files (code, tests, manifests, docs, SQL), as paths from `root`; dependencies and builds aside. */
export function repositoryTextFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      if (SKIPPED.has(name) || name === 'package-lock.json') continue;
      const path = join(folder, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (TEXT.test(name)) found.push(relative(root, path));
    }
  };
  walk(root);
  return found.sort();
}

/** A test, as the rules' coverage counts one: any script under tests/, and any `*.test.*` or `*.spec.*` file. */
export function isTestFile(path: string): boolean {
  return /\.[cm]?[jt]sx?$/.test(path) && (path.startsWith('tests/') || /\.(test|spec)\.[cm]?[jt]sx?$/.test(path));
}

/** For each rule, the test files naming it. */
export function testsByRule(root: string, files: readonly string[], rules: readonly string[]): Map<string, string[]> {
  const families = new Set(rules.map((rule) => rule.split('-')[0]!));
  const byRule = new Map(rules.map((rule) => [rule, [] as string[]]));
  for (const file of files.filter(isTestFile)) {
    for (const rule of namedRules(readFileSync(join(root, file), 'utf8'), families)) byRule.get(rule)?.push(file);
  }
  return byRule;
}
