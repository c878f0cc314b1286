import type { AreaRoute } from '../generated/types.ts';
import { SCREENS } from '../screens/index.ts';

/** ROUTE-08: loads the chunks of flagged areas and their screens, quietly (a failure surfaces on the visit). */
export function preloadAreas(areas: readonly AreaRoute[]): void {
  for (const area of areas.filter((candidate) => candidate.preload)) {
    const screens = new Set(area.routes.map((route) => route.screen));
    void Promise.all([area.load(), ...[...screens].map((screen) => SCREENS[screen]())]).catch(() => undefined);
  }
}
