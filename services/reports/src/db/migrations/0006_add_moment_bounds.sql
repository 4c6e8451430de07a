-- Bounds of the edited-date parameters, given as a date (a whole day) or an
-- ISO 8601 date-time with an optional UTC offset (that moment; without an
-- offset, in the database's time zone, as the timestamps are shown).
CREATE FUNCTION reports.moment_start(value text) RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT value::timestamptz
$$;

-- An exclusive upper bound: the next day's start for a date, just after the moment for a date-time.
CREATE FUNCTION reports.moment_end(value text) RETURNS timestamptz LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN length(value) = 10 THEN value::date::timestamptz + interval '1 day' ELSE value::timestamptz + interval '1 microsecond' END
$$;
