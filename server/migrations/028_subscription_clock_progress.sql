-- The subscription clock moves subscribers on in batches, each its own transaction (the first round walks every
-- subscriber): a round under way keeps the day it is for and the last subscriber it has moved on, so that a round cut
-- short (a restart, another instance taking over) goes on from there the same day. `derived_on` is null until the
-- first round has finished.
ALTER TABLE subscription_clock ALTER COLUMN derived_on DROP NOT NULL;
ALTER TABLE subscription_clock ADD COLUMN IF NOT EXISTS round_on date;
ALTER TABLE subscription_clock ADD COLUMN IF NOT EXISTS done_through bigint;
