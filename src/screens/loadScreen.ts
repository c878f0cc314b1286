import type { ScreenName } from '../generated/types.ts';

/**
 * A screen's module by the name the manifest gives it. The registry of screens is a chunk of its own, fetched with
 * the first screen: with the dependency lists of every screen in it, it would weigh on the sign-in screen.
 */
export const loadScreen = (name: ScreenName) => import('./index.ts').then(({ SCREENS }) => SCREENS[name]());
