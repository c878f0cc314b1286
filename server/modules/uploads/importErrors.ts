/** What the log says of an upload whose accepted file is no longer in storage. */
export const MISSING_FILE_ERROR =
  'The stored file is gone, so this upload could not be processed. Upload the file again.';
/** What it says of an upload accepted before the server recorded the hash of the checked bytes (migration 006). */
export const UNVERIFIABLE_FILE_ERROR =
  'This upload was accepted before the server recorded what it checked, so its stored file cannot be verified. Upload the file again.';
/** An import taken up this many times without ending (it stops every instance that tries it) fails instead. */
export const MAX_IMPORT_ATTEMPTS = 5;
/** What it says of an upload whose import never ended, whichever instance took it up. */
export const GAVE_UP_ERROR = `This upload could not be processed (it was tried ${MAX_IMPORT_ATTEMPTS} times). Upload the file again; if it fails again, the server log says why.`;

/** What it says of an upload whose import a user cancelled. */
export const CANCELLED_ERROR = 'The import was cancelled; nothing of the file was imported.';
