-- Associations between occurrences, as reports show them: a report shows one
-- only when the caller may see both of its occurrences.
CREATE TABLE reports.occurrence_associations (
  id bigint PRIMARY KEY,
  from_occurrence_id bigint NOT NULL,
  to_occurrence_id bigint NOT NULL,
  association_type_id bigint NOT NULL,
  comment text,
  website_id bigint NOT NULL,
  created_by_id bigint NOT NULL,
  created_on timestamptz NOT NULL,
  updated_on timestamptz NOT NULL
);
CREATE INDEX occurrence_associations_from ON reports.occurrence_associations (from_occurrence_id);
CREATE INDEX occurrence_associations_to ON reports.occurrence_associations (to_occurrence_id);
