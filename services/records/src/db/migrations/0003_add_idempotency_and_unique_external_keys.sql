-- A sample's external key is unique within its website (deleted samples aside).
DROP INDEX records.samples_external_key;
CREATE UNIQUE INDEX samples_external_key ON records.samples (website_id, external_key) WHERE external_key IS NOT NULL AND NOT deleted;

-- Submissions made with an Idempotency-Key: written in the same statement as
-- the records, so a retry finds either all of it or none of it.
CREATE TABLE records.idempotency_keys (
  website_id bigint NOT NULL,
  user_id bigint NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  saved jsonb NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (website_id, user_id, key)
);
CREATE INDEX idempotency_keys_created_on ON records.idempotency_keys (created_on);
