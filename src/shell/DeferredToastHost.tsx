import { lazy, Suspense, useEffect, useState } from 'react';
import { whenIdle } from './whenIdle.ts';

const ToastHost = lazy(() => import('./ToastHost.tsx').then((module) => ({ default: module.ToastHost })));

/**
 * The toast container, with the toast library and its styles, loaded once the first screen is idle: the sign-in
 * screen shows its errors in the form and does not wait for it. A toast raised earlier is kept by the library and
 * shown when the container mounts.
 */
export function DeferredToastHost() {
  const [wanted, setWanted] = useState(false);
  useEffect(() => whenIdle(() => setWanted(true)), []);
  return wanted ? (
    <Suspense fallback={null}>
      <ToastHost />
    </Suspense>
  ) : null;
}
