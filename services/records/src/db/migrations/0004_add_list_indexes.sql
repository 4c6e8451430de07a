-- Lists page through a user's own records in id order.
CREATE INDEX occurrences_created_by_id ON records.occurrences (created_by_id, id) WHERE NOT deleted;
CREATE INDEX samples_created_by_id_id ON records.samples (created_by_id, id) WHERE NOT deleted;
