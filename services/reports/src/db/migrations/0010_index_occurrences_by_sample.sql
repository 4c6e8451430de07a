-- A changed sample refreshes its occurrences, which the projector finds by sample_id in the read
-- model too (those records no longer lists under the sample). Without an index that lookup read
-- the whole table in every batch holding a sample, a cost that grew with the read model.
CREATE INDEX IF NOT EXISTS occurrences_sample ON reports.occurrences (sample_id);
