ALTER TABLE records.locations
  ADD COLUMN parent_id bigint REFERENCES records.locations (id),
  ADD COLUMN boundary_geom bytea,
  ADD COLUMN centroid_lat double precision,
  ADD COLUMN centroid_lon double precision;
CREATE INDEX locations_created_by_id ON records.locations (created_by_id, id) WHERE NOT deleted;
