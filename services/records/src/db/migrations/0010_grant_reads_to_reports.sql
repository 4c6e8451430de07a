-- The records tables other services may read (the reports projector), granted
-- to the group role rex_records_readers when a deployment has it (see the
-- admin command `database roles`). A later migration adding such a table
-- replaces this function and calls it again.
CREATE OR REPLACE FUNCTION records.grant_to_readers() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'rex_records_readers') THEN
    GRANT USAGE ON SCHEMA records TO rex_records_readers;
    GRANT SELECT ON records.outbox, records.samples, records.surveys, records.occurrences, records.taxa,
      records.locations, records.occurrence_comments TO rex_records_readers;
  END IF;
END $$;

SELECT records.grant_to_readers();
