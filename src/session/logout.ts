import { http } from '../http/http.ts';
import { announceSessionEnd, endSession } from './sessionStore.ts';

/** SESSION-07, SESSION-08: tells the server, then clears the session whatever it answered. */
export async function logout(): Promise<void> {
  announceSessionEnd('logout');
  try {
    await http.post('logout', {});
  } catch {
    // The server already saw an error toast; the session ends regardless (SESSION-08).
  } finally {
    endSession('logout');
  }
}
