import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, documents, headingAnchors, linkTargets, missingPaths } from './markdownLinks.ts';
import { repositoryTextFiles } from './specRules.ts';

const ROOT = join(import.meta.dirname, '../..');
const docs = documents(ROOT);

/** Paths the documents name as history (what a file used to be), which are meant not to exist. */
const FORMER_PATHS = ['docs/migrations.md: server/generated/tables.sql'];

describe('the documents (README.md, docs/)', () => {
  it('reads the README and every document under docs/', () => {
    expect(docs).toContain('README.md');
    expect(docs).toContain('docs/architecture.md');
    expect(docs).toContain('docs/spec/rules.md');
  });

  it('every relative link leads to a file or folder of the repository, and every #anchor to a heading there', () => {
    expect(linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8'))).toContain('docs/architecture.md');
    expect(docs.flatMap((document) => brokenLinks(ROOT, document))).toEqual([]);
  });

  it('every repository path a document names in code exists', () => {
    const missing = docs.flatMap((document) => missingPaths(ROOT, document));
    expect(missing.filter((entry) => !FORMER_PATHS.includes(entry))).toEqual([]);
  });

  it('every document the code names under docs/ exists', () => {
    const named = repositoryTextFiles(ROOT).flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/\bdocs\/[\w/.-]*\w\.md\b/g)].map((match) => match[0]),
    );
    expect(named.length).toBeGreaterThan(10);
    expect([...new Set(named)].filter((path) => !existsSync(join(ROOT, path)))).toEqual([]);
  });

  it('finds links outside code and anchors as GitHub writes them', () => {
    const text = '# Health and readiness\n## Health and readiness\n[a](x.md#b) `[c](d.md)`\n```\n[e](f.md)\n```\n';
    expect(linkTargets(text)).toEqual(['x.md#b']);
    expect([...headingAnchors(text)]).toEqual(['health-and-readiness', 'health-and-readiness-1']);
    expect([...headingAnchors('## Where does X go\n## Auth and session (spec section 7)')]).toEqual([
      'where-does-x-go',
      'auth-and-session-spec-section-7',
    ]);
  });
});
