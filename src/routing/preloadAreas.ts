import type { AreaRoute } from '../generated/types.ts';
import { loadScreen } from '../screens/loadScreen.ts';
import { loadAdminLayout } from './adminLayout.ts';

/**
 * ROUTE-08: loads the chunks of flagged areas, their screens and the layout they show in, quietly (a failure
 * surfaces on the visit).
 */
export function preloadAreas(areas: readonly AreaRoute[]): void {
  const flagged = areas.filter((candidate) => candidate.preload);
  if (flagged.some((area) => area.layout === 'admin')) void loadAdminLayout().catch(() => undefined);
  for (const area of flagged) {
    const screens = new Set(area.routes.map((route) => route.screen));
    void Promise.all([area.load(), ...[...screens].map((screen) => loadScreen(screen))]).catch(() => undefined);
  }
}
