import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import { http } from '../http/http.ts';
import { toastError } from '../shell/index.ts';

/**
 * The browser's passkey prompts (WebAuthn, through @simplewebauthn/browser) and the API calls around them
 * (docs/api.md, "Passkeys"). Loaded only when a passkey button is used, so the sign-in screen stays small.
 */
type TokenPair = { access: string; refresh: string };
type Options<T> = { data: T };

/** The prompt was dismissed, timed out, or the browser has no passkey for this site: said once, in a toast. */
const NOT_USED = 'No passkey was used. Try again, or use another way to sign in.';

async function prompted<T>(ceremony: () => Promise<T>): Promise<T> {
  try {
    return await ceremony();
  } catch (error) {
    toastError(NOT_USED);
    throw error;
  }
}

/** Signs in with a passkey: alone, or (with the `mfa_token` of a right password) as the second step. */
export async function signInWithPasskey(mfaToken?: string): Promise<TokenPair> {
  const step = mfaToken ? { mfa_token: mfaToken } : {};
  const prefix = mfaToken ? 'login/two-factor/passkey' : 'login/passkey';
  const options = await http.post<Options<Parameters<typeof startAuthentication>[0]['optionsJSON']>>(
    `${prefix}-options`,
    step,
  );
  const response = await prompted(() => startAuthentication({ optionsJSON: options.data }));
  return (await http.post<{ data: TokenPair }>(prefix, { ...step, response })).data;
}

/** Adds a passkey to the signed-in user (or, with `token`, to the user enrolling right after their password). */
export async function addPasskey(name: string, token?: string): Promise<{ message: string }> {
  const options = await http.post<Options<Parameters<typeof startRegistration>[0]['optionsJSON']>>(
    'user/passkeys/registration-options',
    {},
    { token },
  );
  const response = await prompted(() => startRegistration({ optionsJSON: options.data }));
  return http.post<{ message: string }>('user/passkeys', { name, response }, { token });
}
