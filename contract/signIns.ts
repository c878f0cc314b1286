/**
 * Sessions and sign-in history as the API answers them and the console shows them (docs/api.md, "Sessions and
 * sign-in history").
 */

/** The outcome of a sign-in attempt on an account, in words. `wrong_code` is a second factor refused. */
export const SIGN_IN_OUTCOMES = {
  success: 'Signed in',
  wrong_password: 'Wrong password',
  wrong_code: 'Wrong code',
  throttled: 'Refused: too many attempts',
  unverified: 'Refused: e-mail address not verified',
} as const;

export type SignInOutcome = keyof typeof SIGN_IN_OUTCOMES;

/** A live session, as `GET user/sessions` and `GET users/:id/sessions` answer it. */
export interface SessionAnswer {
  id: string;
  created_at: string;
  /** When its refresh token was last used; the sign-in's time until then. */
  last_used_at: string;
  client_address: string | null;
  /** "Chrome 126 on Windows". */
  browser: string;
  user_agent: string | null;
  /** The session of the request that asked. */
  current: boolean;
}

/** One attempt, as `GET user/sign-ins` and `GET users/:id/sign-ins` answer it. */
export interface SignInAnswer {
  id: number;
  at: string;
  outcome: SignInOutcome;
  client_address: string | null;
  browser: string;
  user_agent: string | null;
}
