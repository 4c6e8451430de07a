-- A record's taxon and dates in one index, for the commonest page of a recording website: one
-- species (or a few) in a date window. The taxon is a one-value range, since a GiST index of core
-- PostgreSQL takes ranges but not plain integers; taxa_taxon_list_id is never null, so the range
-- holds exactly that taxon. The taxa_taxon_list_id parameter asks for the range (see
-- standard-params.ts): with both filters the index yields just the rows of the taxa in the window,
-- where the btree on (taxon, date start) yields every earlier record of the taxa.
CREATE INDEX IF NOT EXISTS occurrences_taxon_dates ON reports.occurrences
  USING gist (int8range(taxa_taxon_list_id, taxa_taxon_list_id, '[]'), daterange(date_start, greatest(date_start, date_end), '[]'));
