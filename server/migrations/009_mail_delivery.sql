-- E-mail leaves the outbox: each instance's delivery worker claims due messages (FOR UPDATE SKIP LOCKED, then a
-- lease: state 'sending' under its own claim_id until next_attempt_at), sends them through SMTP_URL, and marks each
-- sent, or pending again with a later next_attempt_at, or failed with the reason. A message whose claim ran out
-- (its instance died mid-send) is due again, so none is lost; message_id stays the same on every attempt.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS html text;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS message_id text;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS state text NOT NULL DEFAULT 'pending'
  CHECK (state IN ('pending', 'sending', 'sent', 'failed'));
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS attempts integer NOT NULL DEFAULT 0;
-- When it is next due: a pending message's next attempt; a sending one's end of claim.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS next_attempt_at timestamptz NOT NULL DEFAULT now();
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS claim_id uuid;
-- When the link the message carries stops working: a message still undelivered then is failed, not sent.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS expires_at timestamptz;
-- 'smtp', or 'console' where a development server without SMTP_URL printed it.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS sent_via text;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS failed_at timestamptz;
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS last_error text;

-- Messages written before delivery existed went nowhere; their links have expired or no longer matter (the users
-- they asked to verify are taken as verified below), so they are closed rather than sent late.
UPDATE outbox SET state = 'failed', failed_at = now(), last_error = 'Written before e-mail was delivered; not sent.'
 WHERE state = 'pending' AND sent_at IS NULL AND message_id IS NULL;

CREATE INDEX IF NOT EXISTS outbox_due_idx ON outbox (next_attempt_at, id) WHERE state IN ('pending', 'sending');
CREATE INDEX IF NOT EXISTS outbox_recent_idx ON outbox (created_at DESC, id DESC);

-- An unverified user may no longer sign in. Users made before that rule could not have received their link, so they
-- keep signing in: their address counts as verified from when they were created.
UPDATE users SET email_verified_at = created_at WHERE email_verified_at IS NULL;

-- The links sent to a user, newest first: how many went out lately is what throttles sending another.
CREATE INDEX IF NOT EXISTS email_links_user_purpose_idx ON email_links (user_id, purpose, created_at DESC);
