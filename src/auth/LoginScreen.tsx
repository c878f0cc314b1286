import {
  lazy,
  Suspense,
  useEffectEvent,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ComponentProps,
} from 'react';
import { Link, useLocation } from 'react-router-dom';
import { DEV_MAILBOX_PATH } from '../config/constants.ts';
import { isApiError } from '../http/ApiError.ts';
import { http } from '../http/http.ts';
import { enrolmentDone, enrolmentStore } from '../session/enrolmentStore.ts';
import type { LoginState } from '../session/landingPath.ts';
import { logout } from '../session/logout.ts';
import { sessionStore, startSession } from '../session/sessionStore.ts';
import { AuthCard } from './AuthCard.tsx';
import { email, required } from './fieldRules.ts';
import { FormMessage } from './FormMessage.tsx';
import { takeOverPrerenderedSignIn } from './prerenderedSignIn.ts';
import { ResendVerificationLink } from './ResendVerificationLink.tsx';
import { TextField } from './TextField.tsx';
import { TwoFactorStep, type SecondStepMethod } from './TwoFactorStep.tsx';
import { useAuthForm } from './useAuthForm.ts';

type TokenPair = { access: string; refresh: string };
interface LoginAnswer {
  /**
   * Tokens; or (two-factor sign-in on) the token of the second step; or (the role requires a second factor not
   * enrolled yet) tokens only the enrolment routes accept.
   */
  data:
    | TokenPair
    | { mfa_required: true; mfa_token: string; methods: SecondStepMethod[] }
    | (TokenPair & { enrol_required: true; methods: SecondStepMethod[] });
}

/** Loaded when a role requires enrolling a second factor: the sign-in screen itself stays small. */
const EnrolStep = lazy(() => import('./EnrolStep.tsx'));
/** What a role's requirement accepts (docs/api.md, "Two-factor sign-in"): what a signed-in user is offered. */
const ENROL_METHODS: SecondStepMethod[] = ['totp', 'passkey'];

function EnrolCard({ intro, ...step }: { intro: string } & ComponentProps<typeof EnrolStep>) {
  return (
    <AuthCard title="Set up two-factor sign-in" intro={intro}>
      <Suspense fallback={<p role="status">Loading…</p>}>
        <EnrolStep {...step} />
      </Suspense>
    </AuthCard>
  );
}

/** A passkey alone: the WebAuthn library loads when the button is used, not with the sign-in screen. */
async function passkeySignIn(): Promise<void> {
  const { signInWithPasskey } = await import('./passkeyCeremony.ts');
  const tokens = await signInWithPasskey();
  startSession(tokens.access, tokens.refresh);
}

const RULES = { email: [required, email], password: [required] };
const SESSION_EXPIRED_NOTICE = 'Your session expired, sign in again.';
/** The server refuses the right password of an address not verified yet with 403 (docs/api.md, "E-mail"). */
const UNVERIFIED_ADDRESS = 403;

/**
 * /auth/login. A successful login stores both tokens (SESSION-06); the guest-only guard then sends the user back to
 * the page they asked for, or to their landing path (ROUTE-15). A failure keeps what was typed; its "Error" toast says
 * the server's message (ERR-01), so the form does not repeat it, and one for an address not verified yet offers here
 * to send the link again. A visitor whose session expired is told so. With two-factor sign-in on, a right password
 * leads to the second step (a code of the app or a recovery code) instead of a session; a user whose role requires
 * a second factor they have not enrolled enrols one first (`EnrolStep`), and only then is the session started. A
 * signed-in user the API sent to enrol (`two_factor_enrolment_required`: their role started requiring it, or their
 * factors were reset) is brought here by the guards and shown the same enrolment, then taken back. The page of this
 * address carries the form as HTML (signInMarkup.tsx), usable before this code runs: the screen takes it over with
 * what was typed there.
 */
export function LoginScreen() {
  const form = useAuthForm(RULES);
  const formElement = useRef<HTMLFormElement>(null);
  const takeOver = useEffectEvent((element: HTMLFormElement) =>
    takeOverPrerenderedSignIn(element, (name, value) => {
      if (name in RULES) form.field(name as keyof typeof RULES).onChange(value);
    }),
  );
  useLayoutEffect(() => {
    if (formElement.current) takeOver(formElement.current);
  }, []);
  const expired = (useLocation().state as LoginState | null)?.sessionExpired === true;
  const [unverified, setUnverified] = useState<{ email: string; password: string } | null>(null);
  const [mfa, setMfa] = useState<{ token: string; methods: SecondStepMethod[] } | null>(null);
  const [enrolling, setEnrolling] = useState<(TokenPair & { methods: SecondStepMethod[] }) | null>(null);
  const [passkeyBusy, setPasskeyBusy] = useState(false);
  // The stores' snapshots serve the build's rendering of this screen to HTML as well (signInMarkup.tsx).
  const mustEnrol = useSyncExternalStore(enrolmentStore.subscribe, enrolmentStore.get, enrolmentStore.get);
  const session = useSyncExternalStore(sessionStore.subscribe, sessionStore.get, sessionStore.get);
  const usePasskey = () => {
    setPasskeyBusy(true);
    // A refusal or a dismissed prompt has said so in its toast (ERR-01); the form stays as it was.
    passkeySignIn()
      .catch(() => undefined)
      .finally(() => setPasskeyBusy(false));
  };
  const logIn = async () => {
    setUnverified(null);
    try {
      const answer = await http.post<LoginAnswer>('login', form.values);
      if ('mfa_required' in answer.data) setMfa({ token: answer.data.mfa_token, methods: answer.data.methods });
      else if ('enrol_required' in answer.data) setEnrolling(answer.data);
      else startSession(answer.data.access, answer.data.refresh);
    } catch (error) {
      if (isApiError(error) && error.status === UNVERIFIED_ADDRESS) setUnverified({ ...form.values });
      throw error;
    }
  };

  if (enrolling)
    return (
      <EnrolCard
        intro={`Your password was right. One more thing for ${form.values.email}.`}
        tokens={enrolling}
        methods={enrolling.methods}
        onEnrolled={() => startSession(enrolling.access, enrolling.refresh)}
        onRestart={() => setEnrolling(null)}
      />
    );
  if (mustEnrol && session.loggedIn && session.token)
    return (
      <EnrolCard
        intro="Before you continue, one more thing."
        tokens={{ access: session.token }}
        methods={ENROL_METHODS}
        onEnrolled={enrolmentDone}
        onRestart={() => void logout()}
        restartLabel="Sign out"
      />
    );
  if (mfa)
    return (
      <AuthCard title="Two-factor sign-in" intro={`Your password was right. One more step for ${form.values.email}.`}>
        <TwoFactorStep mfaToken={mfa.token} methods={mfa.methods} onRestart={() => setMfa(null)} />
      </AuthCard>
    );
  return (
    <AuthCard title="Sign in" intro="Sign in to the Trade Data administration console.">
      <form ref={formElement} className="auth-form" noValidate onSubmit={form.onSubmit(logIn)}>
        {!form.failure && <FormMessage kind="info" text={expired ? SESSION_EXPIRED_NOTICE : null} />}
        {unverified && form.failure && (
          <ResendVerificationLink email={unverified.email} password={unverified.password} />
        )}
        <TextField
          label="Email"
          name="email"
          type="email"
          autoComplete="username"
          autoFocus
          field={form.field('email')}
        />
        <TextField
          label="Password"
          name="password"
          type="password"
          autoComplete="current-password"
          field={form.field('password')}
        />
        <button type="submit" className="button button--primary button--block" disabled={form.busy}>
          {form.busy ? 'Signing in…' : 'Sign in'}
        </button>
        <button type="button" className="button button--block" disabled={form.busy || passkeyBusy} onClick={usePasskey}>
          {passkeyBusy ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
        <p className="auth-links">
          <Link to="/auth/forgot-password">Forgot password?</Link>
          {__DEV_MAILBOX__ && (
            <>
              {' · '}
              <Link to={DEV_MAILBOX_PATH}>Development mailbox</Link>
            </>
          )}
        </p>
      </form>
    </AuthCard>
  );
}
