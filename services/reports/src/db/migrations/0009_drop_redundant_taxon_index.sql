-- occurrences_taxon_date (taxa_taxon_list_id, date_start) serves every lookup by taxon that
-- occurrences_taxon (taxa_taxon_list_id) served; the projector no longer keeps both up to date.
DROP INDEX IF EXISTS reports.occurrences_taxon;
