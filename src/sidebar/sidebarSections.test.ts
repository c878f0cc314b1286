import { describe, expect, it } from 'vitest';
import type { SidebarEntry } from '../generated/types.ts';
import { sidebarSections } from './sidebarSections.ts';

const entry = (module: string, order: number, group: string | null): SidebarEntry =>
  ({
    module,
    label: module,
    link: `/${module.toLowerCase()}`,
    fixed: false,
    group,
    icon: 'folder',
    order,
  }) as SidebarEntry;

const shape = (sections: ReturnType<typeof sidebarSections>) =>
  sections.map(({ heading, entries }) => [heading, entries.map((one) => one.module)]);

describe('sidebar sections', () => {
  const all = [
    entry('D', 4, 'Second'),
    entry('A', 1, 'First'),
    entry('C', 3, null),
    entry('B', 2, 'Second'),
    entry('E', 5, 'First'),
  ];

  it('puts each heading where its first entry is, entries by order under it, the ungrouped ones under no heading', () => {
    expect(shape(sidebarSections(all, all))).toEqual([
      ['First', ['A', 'E']],
      ['Second', ['B', 'D']],
      [null, ['C']],
    ]);
  });

  it('places headings by the whole table, not by what is visible, and leaves out a heading with nothing visible', () => {
    const visible = all.filter((one) => ['E', 'C', 'D'].includes(one.module));
    expect(shape(sidebarSections(all, visible))).toEqual([
      ['First', ['E']],
      ['Second', ['D']],
      [null, ['C']],
    ]);
    expect(sidebarSections(all, [])).toEqual([]);
  });
});
