import { render } from '@testing-library/react';
import { App } from '../../src/App.tsx';
import { AREAS } from '../../src/generated/routes.ts';
import { createMemoryAppHistory } from '../../src/routing/appHistory.ts';
import { appRoutes } from '../../src/routing/appRoutes.tsx';
import { createAppRouter } from '../../src/routing/createAppRouter.ts';
import { startSession } from '../../src/session/index.ts';
import { login, type TokenPair } from './realApi.ts';

/**
 * The whole console at a path, as main.tsx builds it (the generated route table, the loader overlay and the
 * toasts), on a history in memory so the test can read and drive the address.
 */
export function renderConsole(path: string) {
  const router = createAppRouter(appRoutes(AREAS), (prepare) => createMemoryAppHistory([path], prepare));
  const view = render(<App router={router} />);
  return { ...view, history: router.history };
}

/** Logs a demo user in through the real API and stores the tokens where the console's session reads them. */
export async function signInAs(role: string): Promise<TokenPair> {
  const pair = await login(role);
  startSession(pair.access, pair.refresh);
  return pair;
}
