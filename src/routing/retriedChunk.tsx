import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { refetchFailedStylesheets } from '../shell/stylesheetRetry.ts';

/**
 * Loads once and keeps what arrived. A failure is not kept: a chunk that could not be fetched (offline for a moment,
 * e.g. while the idle preloading ran) is fetched again by the next preload or visit instead of failing for good. Any
 * stylesheet that failed before is fetched again with it, as Vite's preloading asks for each only once per page.
 */
export function loadOnce<Value>(load: () => Promise<Value>): () => Promise<Value> {
  let loading: Promise<Value> | undefined;
  return () =>
    (loading ??= Promise.all([load(), refetchFailedStylesheets()]).then(
      ([value]) => value,
      (error: unknown) => {
        loading = undefined;
        throw error;
      },
    ));
}

/**
 * The component `load` settles with, suspending until it is there: React's `lazy`, made anew after a failure, since a
 * lazy component keeps its failure for good. The render after a failed load (the route's error boundary gives the
 * next address its chance) then loads again.
 */
export function suspendedComponent(load: () => Promise<ComponentType>): ComponentType {
  const lazyLoad = (): LazyExoticComponent<ComponentType> =>
    lazy(() =>
      load().then(
        (Loaded) => ({ default: Loaded }),
        (error: unknown) => {
          Current = lazyLoad();
          throw error;
        },
      ),
    );
  let Current = lazyLoad();
  return function SuspendedComponent() {
    return <Current />;
  };
}
