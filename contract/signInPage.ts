/**
 * The page of /auth/login carries the sign-in form as HTML (built from the sign-in screen's components when the console
 * is built), so that it can be used before the console's code has arrived and run; the code then takes it over.
 */
export const SIGN_IN_PATH = '/auth/login';

/** The element holding that form, beside the console's own root. */
export const PRERENDERED_SIGN_IN_ID = 'sign-in-prerendered';

/**
 * The console's one inline script (its hash is in the content security policy). Until the code takes the form over, a
 * submit is held, marked on the form, instead of being sent by the browser as a plain form (which would put the
 * password in the address); the code sends it once it is there.
 */
export const SIGN_IN_GUARD_SCRIPT =
  `document.getElementById('${PRERENDERED_SIGN_IN_ID}').addEventListener('submit',function(event){` +
  `event.preventDefault();event.target.setAttribute('data-submitted','');});`;
