-- Survey structure, taxa and custom attributes (reference data, managed with `pnpm admin`).
CREATE TABLE records.surveys (
  id bigserial PRIMARY KEY,
  website_id bigint NOT NULL,
  title text NOT NULL,
  description text,
  deleted boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now(),
  updated_on timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE records.taxa (
  id bigserial PRIMARY KEY,
  taxon text NOT NULL,
  preferred_taxon text,
  default_common_name text,
  taxon_group text,
  external_key text,
  deleted boolean NOT NULL DEFAULT false
);

CREATE TABLE records.attributes (
  id bigserial PRIMARY KEY,
  entity text NOT NULL CHECK (entity IN ('sample', 'occurrence', 'location')),
  caption text NOT NULL,
  data_type char(1) NOT NULL CHECK (data_type IN ('T', 'I', 'F', 'D', 'V', 'B', 'L')),
  multi_value boolean NOT NULL DEFAULT false,
  deleted boolean NOT NULL DEFAULT false
);

CREATE TABLE records.attribute_terms (
  id bigserial PRIMARY KEY,
  attribute_id bigint NOT NULL REFERENCES records.attributes (id),
  term text NOT NULL
);

CREATE TABLE records.survey_attributes (
  survey_id bigint NOT NULL REFERENCES records.surveys (id),
  attribute_id bigint NOT NULL REFERENCES records.attributes (id),
  required boolean NOT NULL DEFAULT false,
  PRIMARY KEY (survey_id, attribute_id)
);

-- Places recorders return to.
CREATE TABLE records.locations (
  id bigserial PRIMARY KEY,
  name text NOT NULL,
  code text,
  website_id bigint NOT NULL,
  location_type_id bigint,
  public boolean NOT NULL DEFAULT false,
  centroid_sref text,
  centroid_sref_system text,
  centroid_geom bytea,
  comment text,
  external_key text,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);

-- Records.
CREATE TABLE records.samples (
  id bigserial PRIMARY KEY,
  survey_id bigint NOT NULL REFERENCES records.surveys (id),
  website_id bigint NOT NULL,
  parent_id bigint REFERENCES records.samples (id),
  location_id bigint,
  date_start date,
  date_end date,
  date_type text NOT NULL,
  entered_sref text,
  entered_sref_system text,
  location_name text,
  geom bytea,
  bbox_xmin double precision,
  bbox_ymin double precision,
  bbox_xmax double precision,
  bbox_ymax double precision,
  centroid_lat double precision,
  centroid_lon double precision,
  comment text,
  external_key text,
  sample_method_id bigint,
  recorder_names text,
  input_form text,
  group_id bigint,
  privacy_precision integer,
  record_status char(1) NOT NULL DEFAULT 'C',
  verified_by_id bigint,
  verified_on timestamptz,
  licence_id bigint,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX samples_parent_id ON records.samples (parent_id) WHERE parent_id IS NOT NULL;
CREATE INDEX samples_created_by_id ON records.samples (website_id, created_by_id) WHERE NOT deleted;
CREATE INDEX samples_external_key ON records.samples (external_key) WHERE external_key IS NOT NULL AND NOT deleted;

CREATE TABLE records.occurrences (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES records.samples (id),
  website_id bigint NOT NULL,
  taxa_taxon_list_id bigint NOT NULL REFERENCES records.taxa (id),
  determiner_id bigint,
  external_key text,
  confidential boolean NOT NULL DEFAULT false,
  comment text,
  record_status char(1) NOT NULL DEFAULT 'C',
  record_substatus smallint,
  zero_abundance boolean NOT NULL DEFAULT false,
  training boolean NOT NULL DEFAULT false,
  sensitivity_precision integer,
  release_status char(1) NOT NULL DEFAULT 'R',
  record_decision_source char(1),
  machine_involvement smallint,
  verified_by_id bigint,
  verified_on timestamptz,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX occurrences_sample_id ON records.occurrences (sample_id);
CREATE INDEX occurrences_external_key ON records.occurrences (external_key) WHERE external_key IS NOT NULL AND NOT deleted;

CREATE TABLE records.sample_attribute_values (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES records.samples (id),
  attribute_id bigint NOT NULL REFERENCES records.attributes (id),
  text_value text,
  int_value bigint,
  float_value double precision,
  date_start date,
  date_end date,
  date_type text,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX sample_attribute_values_sample_id ON records.sample_attribute_values (sample_id);

CREATE TABLE records.occurrence_attribute_values (
  id bigserial PRIMARY KEY,
  occurrence_id bigint NOT NULL REFERENCES records.occurrences (id),
  attribute_id bigint NOT NULL REFERENCES records.attributes (id),
  text_value text,
  int_value bigint,
  float_value double precision,
  date_start date,
  date_end date,
  date_type text,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX occurrence_attribute_values_occurrence_id ON records.occurrence_attribute_values (occurrence_id);

CREATE TABLE records.occurrence_comments (
  id bigserial PRIMARY KEY,
  occurrence_id bigint NOT NULL REFERENCES records.occurrences (id),
  comment text NOT NULL,
  person_name text,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);

-- One event per change, written in the same transaction as the change.
CREATE TABLE records.outbox (
  id bigserial PRIMARY KEY,
  entity text NOT NULL,
  entity_id bigint NOT NULL,
  operation text NOT NULL CHECK (operation IN ('create', 'update', 'delete')),
  website_id bigint NOT NULL,
  survey_id bigint,
  user_id bigint,
  occurred_on timestamptz NOT NULL DEFAULT now()
);
