-- Confirmations of a media claim are retried a bounded number of times; a
-- claim past the limit is left for an operator (metric and alert).
ALTER TABLE records.media_claims ADD COLUMN confirm_attempts integer NOT NULL DEFAULT 0;
