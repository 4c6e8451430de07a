-- Location custom attributes (`locAttr:<id>`). Locations have no survey: as in the warehouse's
-- location_attributes_websites, an attribute of entity 'location' is attached to websites, with
-- its required flag, and optionally only for locations of one type.
CREATE TABLE records.location_attribute_websites (
  website_id bigint NOT NULL,
  attribute_id bigint NOT NULL REFERENCES records.attributes (id),
  required boolean NOT NULL DEFAULT false,
  location_type_id bigint,
  PRIMARY KEY (website_id, attribute_id)
);
CREATE INDEX location_attribute_websites_attribute_id ON records.location_attribute_websites (attribute_id);

CREATE TABLE records.location_attribute_values (
  id bigserial PRIMARY KEY,
  location_id bigint NOT NULL REFERENCES records.locations (id),
  attribute_id bigint NOT NULL REFERENCES records.attributes (id),
  text_value text,
  int_value bigint,
  float_value double precision,
  date_start date,
  date_end date,
  date_type text,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX location_attribute_values_location_id ON records.location_attribute_values (location_id);
