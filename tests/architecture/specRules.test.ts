import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { definedRules, namedRules, repositoryTextFiles, testsByRule } from './specRules.ts';

const ROOT = join(import.meta.dirname, '../..');
const rules = definedRules(readFileSync(join(ROOT, 'docs/spec/rules.md'), 'utf8'));
const families = new Set(rules.map((rule) => rule.split('-')[0]!));
const files = repositoryTextFiles(ROOT);

describe('the spec rules (docs/spec/rules.md)', () => {
  it('reads every rule of the file, each once', () => {
    expect(rules.length).toBeGreaterThanOrEqual(95);
    expect(new Set(rules).size).toBe(rules.length);
    expect(rules).toContain('SESSION-03');
    expect(rules).toContain('CONST-01');
  });

  it('each rule has a test naming its ID', () => {
    const byRule = testsByRule(ROOT, files, rules);
    expect([...byRule].filter(([, tests]) => tests.length === 0).map(([rule]) => rule)).toEqual([]);
    expect(byRule.get('SESSION-03')!.length).toBeGreaterThan(0);
  });

  it('no code, comment, test or document names a rule ID the file does not define', () => {
    const defined = new Set(rules);
    const unknown = files.flatMap((file) =>
      namedRules(readFileSync(join(ROOT, file), 'utf8'), families)
        .filter((rule) => !defined.has(rule))
        .map((rule) => `${file}: ${rule}`),
    );
    expect(unknown).toEqual([]);
  });

  it('finds the IDs a text names, shorthands spelt out, and only those of the rules’ families', () => {
    // Built from parts, so that this file names no rule the scan above would refuse.
    const id = (family: string, number: string) => [family, number].join('-');
    const text = `${id('ERR', '03')}..06 and ${id('SESSION', '06')}/07/10; ${id('PERM', '99')}; SHA-256, UTR-42`;
    const expected = [
      ['ERR', '03'],
      ['ERR', '04'],
      ['ERR', '05'],
      ['ERR', '06'],
      ['PERM', '99'],
      ['SESSION', '06'],
    ];
    expected.push(['SESSION', '07'], ['SESSION', '10']);
    expect(namedRules(text, families).sort()).toEqual(expected.map(([family, number]) => id(family!, number!)));
  });
});
