import type { ScreenProps } from '../screens/ScreenProps.ts';

/** A stand-in for `SCREENS`: every screen name renders a heading naming itself, its resource and its action. */
export const MOCK_SCREENS = new Proxy(
  {},
  {
    get: (_target, name) => () =>
      Promise.resolve({
        default: ({ resource, route }: ScreenProps) => (
          <h1>{`${String(name)} screen: ${resource.label} ${route.action}`}</h1>
        ),
      }),
  },
);
