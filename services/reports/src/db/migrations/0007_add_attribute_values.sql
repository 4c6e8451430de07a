-- Each occurrence's custom attribute values and its sample's, as text by
-- attribute id ({"4": "Adult"}, several values joined by "; "), for the
-- smpattrs/occattrs columns of reports. NULL until the projector has filled
-- them (it fills rows projected before this column existed on its own).
ALTER TABLE reports.occurrences ADD COLUMN attrs jsonb, ADD COLUMN sample_attrs jsonb;
-- Finds those rows cheaply, and costs nothing once none is left.
CREATE INDEX occurrences_attrs_missing ON reports.occurrences (id) WHERE attrs IS NULL;
