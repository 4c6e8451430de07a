-- What a sample's or medium's licence_id, a sample's group_id and its
-- sample_method_id name; a submission naming one that does not exist is
-- refused. The columns stay without foreign keys: rows written before this
-- migration may name ids that were never checked.

-- Licences, shared by every website; the warehouse's four standard ones,
-- with its ids.
CREATE TABLE records.licences (
  id bigserial PRIMARY KEY,
  title text NOT NULL,
  code text NOT NULL UNIQUE,
  url_readable text,
  version text,
  deleted boolean NOT NULL DEFAULT false
);
INSERT INTO records.licences (id, title, code, url_readable, version) VALUES
  (1, 'Creative Commons Attribution', 'CC-BY', 'https://creativecommons.org/licenses/by/4.0', '4.0'),
  (2, 'Creative Commons Attribution-NonCommercial', 'CC-BY-NC', 'https://creativecommons.org/licenses/by-nc/4.0', '4.0'),
  (3, 'Creative Commons "No Rights Reserved"', 'CC0', 'https://creativecommons.org/publicdomain/zero/1.0', '1.0'),
  (4, 'Open Government Licence (UK)', 'OGL', 'https://www.nationalarchives.gov.uk/doc/open-government-licence/version/3', '3');
SELECT setval(pg_get_serial_sequence('records.licences', 'id'), 4);

-- Recording groups: each belongs to one website, and only that website's
-- samples may name it.
CREATE TABLE records.groups (
  id bigserial PRIMARY KEY,
  website_id bigint NOT NULL,
  title text NOT NULL,
  code text,
  description text,
  deleted boolean NOT NULL DEFAULT false,
  created_on timestamptz NOT NULL DEFAULT now(),
  updated_on timestamptz NOT NULL DEFAULT now()
);

-- Sample methods are the terms of the sample-methods list. They live beside
-- the lookup attributes' terms, so that term ids are one series, as in the
-- warehouse's termlists_terms: a term belongs to an attribute or to a named
-- list, never both.
ALTER TABLE records.attribute_terms
  ALTER COLUMN attribute_id DROP NOT NULL,
  ADD COLUMN termlist text CHECK (termlist IN ('sample_methods')),
  ADD CONSTRAINT attribute_terms_attribute_or_termlist CHECK ((attribute_id IS NULL) <> (termlist IS NULL));
