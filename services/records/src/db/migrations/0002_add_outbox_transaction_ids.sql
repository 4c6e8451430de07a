-- The id of the transaction that wrote each event: a reader that takes only
-- events of transactions older than every running one never misses an event
-- whose transaction commits late.
ALTER TABLE records.outbox ADD COLUMN txid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX outbox_txid_id ON records.outbox (txid, id);
