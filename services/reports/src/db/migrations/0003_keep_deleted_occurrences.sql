-- Deleted occurrences stay in the read model, marked, so that the exchange
-- format can tell remote systems to delete them; reports leave them out.
ALTER TABLE reports.occurrences ADD COLUMN deleted boolean NOT NULL DEFAULT false;
