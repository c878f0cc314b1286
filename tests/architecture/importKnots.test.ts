import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importGraph, knots, sourceFiles } from './importGraph.ts';

const ROOT = join(import.meta.dirname, '../..');
const files = sourceFiles(ROOT, ['server', 'src', 'cli', 'codegen', 'contract', 'validation']);
const graph = importGraph(ROOT, files);

describe('imports', () => {
  it('reads the imports it is meant to judge: type-only and lazy ones too', () => {
    expect(graph.get('server/app.ts')).toContain('server/modules/resources/routes.ts');
    expect(graph.get('server/modules/uploads/openStorage.ts')).toContain('server/modules/uploads/s3Storage.ts');
    expect(graph.get('src/screens/index.ts')).toContain('src/screens/ScreenProps.ts');
  });

  it('no file imports, directly or through others, a file that imports it', () => {
    expect(knots(graph)).toEqual([]);
  });

  it('no server module imports, directly or through others, a module that imports it', () => {
    const moduleOf = (file: string) => /^server\/modules\/([^/]+)\//.exec(file)?.[1];
    const modules = new Map(
      readdirSync(join(ROOT, 'server/modules'), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => [entry.name, new Set<string>()]),
    );
    for (const [file, targets] of graph) {
      const from = moduleOf(file);
      for (const target of targets) {
        const to = moduleOf(target);
        if (from && to && from !== to) modules.get(from)!.add(to);
      }
    }
    expect(knots(new Map([...modules].map(([name, targets]) => [name, [...targets]])))).toEqual([]);
  });

  it('finds a knot where there is one', () => {
    expect(
      knots(
        new Map([
          ['a', ['b']],
          ['b', ['c']],
          ['c', ['a']],
          ['d', ['a']],
        ]),
      ),
    ).toEqual([['a', 'b', 'c']]);
  });
});
