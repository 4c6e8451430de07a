-- The taxa's windows (migration 0011) as PL/pgSQL. Every report page planned for its own values
-- (reports' connections plan each run anew) calls this function while it is planned, to compare
-- the windows with the index's statistics. As a SQL function it was parsed and planned again at
-- each call, which took 0.1 to 0.4 ms of each statement (a page and its count), about as long as
-- reading the page; PL/pgSQL keeps what it prepares for the connection's life. The same windows
-- as before, taxon by taxon: the stretch of each taxon on the number line within the window (a
-- bound not given: the taxon's end; a window given backwards: its end), and for a taxon beyond
-- the line a range below it.
CREATE OR REPLACE FUNCTION reports.taxa_windows(taxa bigint[], date_from date, date_to date) RETURNS int8range[]
  LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  first_day date := coalesce(CASE WHEN date_from > date_to THEN date_to ELSE date_from END, '-infinity');
  last_day date := coalesce(date_to, 'infinity');
  taxon bigint;
  windows int8range[] := '{}';
BEGIN
  FOREACH taxon IN ARRAY coalesce(taxa, '{}') LOOP
    windows := windows || CASE WHEN taxon BETWEEN 0 AND 8796093022206
      THEN reports.taxon_days(taxon, first_day, last_day)
      ELSE int8range(-1, -1, '[]') END;
  END LOOP;
  RETURN windows;
END
$$;
