-- Failed logins per client address, beside those per account (login_throttle): spraying many accounts from one
-- client is throttled too. Its own table, so no e-mail typed at sign-in can name a client's row.
CREATE TABLE IF NOT EXISTS client_login_throttle (
  client text PRIMARY KEY,
  failures integer NOT NULL,
  window_started timestamptz NOT NULL,
  locked_until timestamptz
);
