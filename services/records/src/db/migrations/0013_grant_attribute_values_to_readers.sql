-- Reports show custom attribute values (the smpattrs/occattrs columns), so the
-- projector reads the attributes, their terms and the stored values too.
CREATE OR REPLACE FUNCTION records.grant_to_readers() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'rex_records_readers') THEN
    GRANT USAGE ON SCHEMA records TO rex_records_readers;
    GRANT SELECT ON records.outbox, records.samples, records.surveys, records.occurrences, records.taxa,
      records.locations, records.occurrence_comments, records.occurrence_associations,
      records.attributes, records.attribute_terms, records.sample_attribute_values, records.occurrence_attribute_values
      TO rex_records_readers;
  END IF;
END $$;

SELECT records.grant_to_readers();
