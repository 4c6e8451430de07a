-- A record's dates as one range, for date windows bounded at both ends (see
-- the date_from/date_to parameters). greatest() keeps the range valid should
-- a row ever have its start after its end; an open start is an unbounded one.
CREATE INDEX occurrences_dates ON reports.occurrences USING gist (daterange(date_start, greatest(date_start, date_end), '[]'));
