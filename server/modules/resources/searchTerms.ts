import { nationalMobile } from '../../../validation/formats.ts';
import { field, type EntityResource } from '../../registry.ts';

/**
 * What a search for `term` looks for in a resource's search text (its list search and the console-wide search): the
 * term as typed and, where a searched field keeps mobile numbers as their ten digits (the manifest's
 * `normalise: "mobile"`), the term in that form too, so "+91 98765 43210" or "98765-43210" finds 9876543210.
 */
export function searchTerms(resource: EntityResource, term: string): string[] {
  const searchesMobile = resource.list.search.some((name) => field(resource.entity, name)?.normalise === 'mobile');
  const mobile = searchesMobile ? nationalMobile(term.trim()) : term;
  return mobile === term || mobile === term.trim() ? [term] : [term, mobile];
}

/** A search term as a LIKE pattern's middle: the wildcards people type (`%`, `_`, `\`) are literal. */
export function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (character) => `\\${character}`);
}
