-- The filters reports use most: a website's records by date, and by taxon and date.
CREATE INDEX occurrences_website_date ON reports.occurrences (website_id, date_start);
CREATE INDEX occurrences_taxon_date ON reports.occurrences (taxa_taxon_list_id, date_start);
