import { CONTROL_URL } from './env.ts';

async function call(path: string, method: 'GET' | 'POST'): Promise<{ running: boolean }> {
  const response = await fetch(`${CONTROL_URL}${path}`, { method, signal: AbortSignal.timeout(150_000) });
  const body = (await response.json()) as { running: boolean; message?: string };
  if (!response.ok) throw new Error(`control ${path}: ${body.message ?? response.status}`);
  return body;
}

/** Stops the API process (the journeys' "the API stopped" fault). */
export const stopApi = () => call('/stop', 'POST');
/** Starts it again on the same port and data folder, and waits until it answers. */
export const startApi = () => call('/start', 'POST');
