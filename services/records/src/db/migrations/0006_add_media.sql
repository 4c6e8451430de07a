-- Media rows: files claimed from the media queue, attached to samples, occurrences and locations.
CREATE TABLE records.sample_media (
  id bigserial PRIMARY KEY,
  sample_id bigint NOT NULL REFERENCES records.samples (id),
  path text NOT NULL,
  caption text,
  media_type text NOT NULL,
  media_type_id bigint,
  exif text,
  licence_id bigint,
  external_details text,
  website_id bigint NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX sample_media_sample_id ON records.sample_media (sample_id);
CREATE INDEX sample_media_created_by_id ON records.sample_media (created_by_id, id) WHERE NOT deleted;

CREATE TABLE records.occurrence_media (
  id bigserial PRIMARY KEY,
  occurrence_id bigint NOT NULL REFERENCES records.occurrences (id),
  path text NOT NULL,
  caption text,
  media_type text NOT NULL,
  media_type_id bigint,
  exif text,
  licence_id bigint,
  external_details text,
  website_id bigint NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX occurrence_media_occurrence_id ON records.occurrence_media (occurrence_id);
CREATE INDEX occurrence_media_created_by_id ON records.occurrence_media (created_by_id, id) WHERE NOT deleted;

CREATE TABLE records.location_media (
  id bigserial PRIMARY KEY,
  location_id bigint NOT NULL REFERENCES records.locations (id),
  path text NOT NULL,
  caption text,
  media_type text NOT NULL,
  media_type_id bigint,
  exif text,
  licence_id bigint,
  external_details text,
  website_id bigint NOT NULL,
  created_on timestamptz NOT NULL DEFAULT now(),
  created_by_id bigint NOT NULL,
  updated_on timestamptz NOT NULL DEFAULT now(),
  updated_by_id bigint NOT NULL,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX location_media_location_id ON records.location_media (location_id);
CREATE INDEX location_media_created_by_id ON records.location_media (created_by_id, id) WHERE NOT deleted;

-- Every file a record has claimed, once: a second claim of the same file
-- fails here even if the media service was told otherwise. `confirmed` turns
-- true once the media service has moved the file into storage; until then a
-- background task keeps confirming it.
CREATE TABLE records.media_claims (
  path text PRIMARY KEY,
  claim_id uuid NOT NULL,
  confirmed boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX media_claims_unconfirmed ON records.media_claims (created_on) WHERE NOT confirmed;
