-- The file of a deleted medium is released: records tells media to forget it
-- (no longer served, removed after a grace period), then drops the row.
ALTER TABLE records.media_claims ADD COLUMN released_on timestamptz;
CREATE INDEX media_claims_released ON records.media_claims (released_on) WHERE released_on IS NOT NULL;
