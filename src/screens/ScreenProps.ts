import type { ModuleRoute, ResourceDescription } from '../generated/types.ts';

/** What the router hands every module screen: the resource from the area's chunk and the route it serves. */
export interface ScreenProps {
  resource: ResourceDescription;
  route: ModuleRoute;
}

/**
 * What a screen's module may export as `prefetch`: starts loading the data the screen shows first at an address
 * (`search`, its query), called before the address changes; the screen's own queries then find it. Settles when
 * that data is there; returns nothing when it was there already.
 */
export type ScreenPrefetch = (resource: ResourceDescription, search: URLSearchParams) => Promise<void> | undefined;
