-- Links between occurrences (a bee visiting a flower, a parasite and its
-- host): from one occurrence to another of the same owner, with the type of
-- association (a term id) and a comment.
CREATE TABLE records.occurrence_associations (
  id bigserial PRIMARY KEY,
  from_occurrence_id bigint NOT NULL REFERENCES records.occurrences (id),
  to_occurrence_id bigint NOT NULL REFERENCES records.occurrences (id),
  association_type_id bigint NOT NULL,
  comment text,
  website_id bigint NOT NULL,
  created_by_id bigint NOT NULL,
  updated_by_id bigint NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  updated_on timestamptz NOT NULL DEFAULT now(),
  deleted boolean NOT NULL DEFAULT false,
  CHECK (from_occurrence_id <> to_occurrence_id)
);
CREATE INDEX occurrence_associations_from ON records.occurrence_associations (from_occurrence_id) WHERE NOT deleted;
CREATE INDEX occurrence_associations_to ON records.occurrence_associations (to_occurrence_id) WHERE NOT deleted;

CREATE OR REPLACE FUNCTION records.grant_to_readers() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF EXISTS (SELECT FROM pg_roles WHERE rolname = 'rex_records_readers') THEN
    GRANT USAGE ON SCHEMA records TO rex_records_readers;
    GRANT SELECT ON records.outbox, records.samples, records.surveys, records.occurrences, records.taxa,
      records.locations, records.occurrence_comments, records.occurrence_associations TO rex_records_readers;
  END IF;
END $$;

SELECT records.grant_to_readers();
