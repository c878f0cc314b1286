import type { ModuleRoute, ResourceDescription } from '../generated/types.ts';

/** What the router hands every module screen: the resource from the area's chunk and the route it serves. */
export interface ScreenProps {
  resource: ResourceDescription;
  route: ModuleRoute;
}
