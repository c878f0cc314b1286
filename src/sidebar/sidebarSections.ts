import type { SidebarEntry } from '../generated/types.ts';

export interface SidebarSection {
  /** The manifest's group; null for the entries under no heading. */
  heading: string | null;
  entries: SidebarEntry[];
}

/**
 * The visible entries under their headings (SIDEBAR-01's order rule, grouped): a heading takes the place of its first
 * entry in the whole table, so headings keep their places whatever a user may see; entries follow their order under
 * it. A heading with no visible entry is left out.
 */
export function sidebarSections(all: readonly SidebarEntry[], visible: readonly SidebarEntry[]): SidebarSection[] {
  const place = new Map<string | null, number>();
  for (const entry of all) place.set(entry.group, Math.min(place.get(entry.group) ?? Infinity, entry.order));
  const sections = new Map<string | null, SidebarEntry[]>();
  for (const entry of [...visible].sort((a, b) => a.order - b.order)) {
    const entries = sections.get(entry.group) ?? [];
    entries.push(entry);
    sections.set(entry.group, entries);
  }
  return [...sections]
    .sort(([a], [b]) => (place.get(a) ?? Infinity) - (place.get(b) ?? Infinity))
    .map(([heading, entries]) => ({ heading, entries }));
}
