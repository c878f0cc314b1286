import { useEffect, useState, type ComponentType } from 'react';
import { markToastHostFailed } from './plainAlert.ts';
import { whenIdle } from './whenIdle.ts';

/**
 * The toast container, with the toast library and its styles, loaded once the first screen is idle: the sign-in
 * screen shows its errors in the form and does not wait for it. A toast raised earlier is kept by the library and
 * shown when the container mounts. When its code cannot be fetched (offline, or the server gone), the errors raised
 * meanwhile and from then on are shown without it (plainAlert.ts); offline, it is fetched again once back online.
 */
export function DeferredToastHost() {
  const [Host, setHost] = useState<ComponentType | null>(null);
  useEffect(() => {
    let stopped = false;
    const load = () => {
      import('./ToastHost.tsx').then(
        (module) => {
          if (!stopped) setHost(() => module.ToastHost);
        },
        () => {
          markToastHostFailed();
          if (!stopped) window.addEventListener('online', load, { once: true });
        },
      );
    };
    const cancelIdle = whenIdle(load);
    return () => {
      stopped = true;
      cancelIdle();
      window.removeEventListener('online', load);
    };
  }, []);
  return Host ? <Host /> : null;
}
