-- A record's taxon and dates as one range on one number line, for the commonest page of a
-- recording website: one species (or a few) in a date window. Each taxon has its own stretch of
-- 2^20 days from 1700 (dates outside it are taken as its ends), so a taxon's records in a window
-- are one range overlap, answered by a GiST index of one range column: core PostgreSQL, and cheap
-- enough to keep up to date that POSTs measured the same with it (decision 0031). A taxon id off
-- the number line (negative, or 2^43 - 1 and up, whose last day's range would overflow) gets an
-- unbounded range, which every window overlaps; the plain comparison of taxon, which a page keeps,
-- decides for it (see standard-params.ts).
CREATE FUNCTION reports.taxon_day(taxon bigint, day date, open_end bigint) RETURNS bigint
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT taxon * 1048576 + CASE
    WHEN day IS NULL THEN open_end
    WHEN NOT isfinite(day) THEN CASE WHEN day > DATE '1700-01-01' THEN 1048575 ELSE 0 END
    ELSE least(greatest(day - DATE '1700-01-01', 0), 1048575) END
$$;

-- A record's stretch: from its start (an open start: the taxon's first day) to its end or, should
-- the end come before the start or be open, its start (as the dates' own index takes it).
CREATE FUNCTION reports.taxon_days(taxon bigint, date_start date, date_end date) RETURNS int8range
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN taxon BETWEEN 0 AND 8796093022206
    THEN int8range(reports.taxon_day(taxon, date_start, 0), reports.taxon_day(taxon, greatest(date_start, date_end), 1048575), '[]')
    ELSE int8range(NULL, NULL) END
$$;

-- The stretches of a page's taxa within its window (a bound not given: the taxon's end; a window
-- given backwards: its end). A taxon beyond the number line gets a range below it, which only the
-- unbounded ranges of such taxa overlap.
CREATE FUNCTION reports.taxa_windows(taxa bigint[], date_from date, date_to date) RETURNS int8range[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(CASE WHEN t BETWEEN 0 AND 8796093022206
           THEN reports.taxon_days(t, coalesce(CASE WHEN date_from > date_to THEN date_to ELSE date_from END, '-infinity'), coalesce(date_to, 'infinity'))
           ELSE int8range(-1, -1, '[]') END), '{}')
    FROM unnest(taxa) AS t
$$;

CREATE INDEX IF NOT EXISTS occurrences_taxon_dates ON reports.occurrences
  USING gist (reports.taxon_days(taxa_taxon_list_id, date_start, date_end));
