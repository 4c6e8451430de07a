-- The change feed: each outbox event the projector applies to the read model,
-- numbered as its batch commits. Batches commit one at a time (the projector's
-- cursor is locked), so a number handed out is never followed by a smaller one.
-- website_id and created_by_id (the writer) decide who may see the tombstone
-- of a record that is gone from the read model.
CREATE TABLE reports.changes (
  seq bigserial PRIMARY KEY,
  entity text NOT NULL CHECK (entity IN ('sample', 'occurrence', 'location')),
  entity_id bigint NOT NULL,
  operation text NOT NULL CHECK (operation IN ('created', 'updated', 'deleted')),
  website_id bigint NOT NULL,
  created_by_id bigint,
  occurred_on timestamptz NOT NULL
);
CREATE INDEX changes_entity ON reports.changes (entity, seq);
