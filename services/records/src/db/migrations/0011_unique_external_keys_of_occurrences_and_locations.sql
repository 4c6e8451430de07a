-- Occurrences' and locations' external keys are unique within their website
-- (deleted records aside), as samples' are. The index cannot be built while
-- live records of one website share a key: find them with
--   SELECT website_id, external_key, array_agg(id) FROM records.occurrences
--    WHERE external_key IS NOT NULL AND NOT deleted GROUP BY 1, 2 HAVING count(*) > 1;
DROP INDEX records.occurrences_external_key;
CREATE UNIQUE INDEX occurrences_external_key ON records.occurrences (website_id, external_key) WHERE external_key IS NOT NULL AND NOT deleted;
CREATE UNIQUE INDEX locations_external_key ON records.locations (website_id, external_key) WHERE external_key IS NOT NULL AND NOT deleted;
