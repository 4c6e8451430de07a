-- The read model reports run on: denormalised copies of records' samples,
-- occurrences and comments, refreshed by the projector from the outbox.
CREATE TABLE reports.samples (
  id bigint PRIMARY KEY,
  parent_id bigint,
  website_id bigint NOT NULL,
  survey_id bigint NOT NULL,
  survey_title text,
  date_start date,
  date_end date,
  date_type text NOT NULL,
  entered_sref text,
  entered_sref_system text,
  location_id bigint,
  location_name text,
  recorder_names text,
  comment text,
  external_key text,
  record_status char(1) NOT NULL,
  lat double precision,
  lon double precision,
  bbox_xmin double precision,
  bbox_ymin double precision,
  bbox_xmax double precision,
  bbox_ymax double precision,
  privacy_precision integer,
  created_by_id bigint NOT NULL,
  created_on timestamptz NOT NULL,
  updated_on timestamptz NOT NULL
);
CREATE INDEX samples_website ON reports.samples (website_id, created_by_id);

CREATE TABLE reports.occurrences (
  id bigint PRIMARY KEY,
  sample_id bigint NOT NULL,
  website_id bigint NOT NULL,
  survey_id bigint NOT NULL,
  survey_title text,
  taxa_taxon_list_id bigint NOT NULL,
  taxon text NOT NULL,
  preferred_taxon text,
  default_common_name text,
  taxon_group text,
  taxon_external_key text,
  date_start date,
  date_end date,
  date_type text NOT NULL,
  entered_sref text,
  entered_sref_system text,
  location_id bigint,
  location_name text,
  recorder_names text,
  lat double precision,
  lon double precision,
  bbox_xmin double precision,
  bbox_ymin double precision,
  bbox_xmax double precision,
  bbox_ymax double precision,
  record_status char(1) NOT NULL,
  record_substatus smallint,
  confidential boolean NOT NULL,
  sensitivity_precision integer,
  release_status char(1) NOT NULL,
  zero_abundance boolean NOT NULL,
  training boolean NOT NULL,
  external_key text,
  comment text,
  verified_by_id bigint,
  verified_on timestamptz,
  created_by_id bigint NOT NULL,
  created_on timestamptz NOT NULL,
  updated_on timestamptz NOT NULL
);
CREATE INDEX occurrences_website ON reports.occurrences (website_id, created_by_id);
CREATE INDEX occurrences_updated ON reports.occurrences (updated_on, id);
CREATE INDEX occurrences_taxon ON reports.occurrences (taxa_taxon_list_id);
CREATE INDEX occurrences_date ON reports.occurrences (date_start);

CREATE TABLE reports.occurrence_comments (
  id bigint PRIMARY KEY,
  occurrence_id bigint NOT NULL,
  website_id bigint NOT NULL,
  comment text NOT NULL,
  person_name text,
  record_status char(1),
  created_by_id bigint NOT NULL,
  created_on timestamptz NOT NULL,
  updated_on timestamptz NOT NULL
);
CREATE INDEX occurrence_comments_occurrence ON reports.occurrence_comments (occurrence_id);

CREATE TABLE reports.locations (
  id bigint PRIMARY KEY,
  name text NOT NULL,
  code text,
  website_id bigint NOT NULL,
  location_type_id bigint,
  public boolean NOT NULL,
  centroid_sref text,
  centroid_sref_system text,
  lat double precision,
  lon double precision,
  created_by_id bigint NOT NULL,
  created_on timestamptz NOT NULL,
  updated_on timestamptz NOT NULL
);
CREATE INDEX locations_type ON reports.locations (location_type_id);

-- Where the projector has got to in the records outbox: the (transaction, id)
-- of the last event applied. One row; its lock decides which replica applies.
CREATE TABLE reports.projector_cursor (
  name text PRIMARY KEY,
  txid xid8 NOT NULL DEFAULT '0',
  event_id bigint NOT NULL DEFAULT 0,
  applied_on timestamptz NOT NULL DEFAULT now()
);
INSERT INTO reports.projector_cursor (name) VALUES ('outbox');
