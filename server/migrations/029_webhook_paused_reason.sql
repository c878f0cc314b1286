-- A webhook the server paused itself (a delivery failed for good and nothing got through since its event): why, for
-- its maker and the console. Null while it is enabled or when a person paused it; enabling it again clears it.
ALTER TABLE webhooks ADD COLUMN IF NOT EXISTS paused_reason text;
