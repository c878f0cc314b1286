import { useEffect, useState, type ComponentType } from 'react';
import { whenIdle } from './whenIdle.ts';

/**
 * The toast container, with the toast library and its styles, loaded once the first screen is idle: the sign-in
 * screen shows its errors in the form and does not wait for it. A toast raised earlier is kept by the library and
 * shown when the container mounts. When its code cannot be fetched (offline), it is fetched again once the browser
 * is back online; meanwhile errors are shown without it (plainAlert.ts).
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
