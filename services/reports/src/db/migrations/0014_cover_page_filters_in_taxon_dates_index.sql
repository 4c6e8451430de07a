-- A page of one species in a date window reads its keys from the taxon-and-dates index alone.
-- Over a million records a month of one species is thousands of rows on as many heap pages; a page
-- read them all to keep the visible ones and sort them for its hundred. The index now holds what
-- the page's filters read (the sharing filter's columns, the taxon and dates) and the record's id,
-- so a page of a report with keyed_pages takes the ids of its rows from the index (an index-only
-- scan) and reads only those rows (see compile.ts).
--
-- An index-only scan takes one value to compare, where `&& ANY(array)` is answered by a bitmap
-- scan of each element: the taxa's windows as one multirange, the same records.
CREATE FUNCTION reports.taxa_span(taxa bigint[], date_from date, date_to date) RETURNS int8multirange
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  span int8multirange := '{}';
  window_range int8range;
BEGIN
  FOREACH window_range IN ARRAY reports.taxa_windows(taxa, date_from, date_to) LOOP
    span := span + int8multirange(window_range);
  END LOOP;
  RETURN span;
END
$$;

DROP INDEX reports.occurrences_taxon_dates;
CREATE INDEX occurrences_taxon_dates ON reports.occurrences
  USING gist (reports.taxon_days(taxa_taxon_list_id, date_start, date_end))
  INCLUDE (id, website_id, created_by_id, deleted, confidential, sensitivity_precision, release_status, taxa_taxon_list_id, date_start, date_end);
