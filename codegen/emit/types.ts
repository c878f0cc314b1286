import { SCREEN_NAMES } from '../vocabulary.ts';
import { literal, tsHeader } from './header.ts';

/** src/generated/types.ts: the custom screens' names, and the console's types of the description (src/routing/areaTypes.ts). */
export function emitTypes(): string {
  return `${tsHeader()}
export type * from '../routing/areaTypes.ts';

/** Screens written for a module beyond the generic list, detail and form, plugged in by name. */
export const CUSTOM_SCREENS = ${literal(SCREEN_NAMES)} as const;

export type CustomScreen = (typeof CUSTOM_SCREENS)[number];
`;
}
