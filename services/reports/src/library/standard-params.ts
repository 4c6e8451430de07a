import type { ReportParam } from './types.ts';

/** Warehouse record statuses (occurrences.record_status). */
const RECORD_STATUSES: Record<string, string> = {
  I: 'Data entry in progress',
  C: 'Not reviewed',
  V: 'Accepted',
  R: 'Not accepted',
  D: 'Queried',
  T: 'Test',
};

function optional(param: Omit<ReportParam, 'default'>): ReportParam {
  return { ...param, default: '' };
}

// Dates follow the warehouse: a record is in a date range when its (vague) date
// overlaps it, and an edited_date_to day includes that whole day. Where the
// warehouse's standard parameters name the same filter otherwise, that name is
// an alias (survey_list, taxa_taxon_list_list, smp_id), and occurrence_id, the
// name of the ID column, is one for occ_id.
//
// A date window is also asked of the GiST index on a record's dates (reports
// migration 0008) as one range overlap, which bounds both ends at once and
// which the planner can estimate: the two comparisons alone can use an index
// on one end only, and their estimate, taken as independent, is so high that
// a page ordered by id walked the primary key. The overlap holds for every
// row the comparisons keep, so they decide, as before, for records with an
// open end.
const DATES = "daterange(o.date_start, greatest(o.date_start, o.date_end), '[]')";
// A window given backwards (from after to) keeps what spans the gap, as the comparisons find it:
// its overlap is asked of the day it ends, where a range from after to would be an error.
const DATES_OVERLAP = `${DATES} && daterange(CASE WHEN #date_from# > #date_to# THEN #date_to# ELSE #date_from# END, #date_to#, '[]')`;
// Taxa in a date window are asked of reports migration 0011's index of a record's taxon and
// dates as one range on one number line (each taxon its own stretch of days), which bounds the
// taxon and both ends of the window at once, with an estimate from that index's statistics. It
// holds for every row the comparisons of taxon and dates keep, so it leaves out the dates' own
// overlap: with both, the planner would combine the two indexes and read the dates' for nothing.
// Within the number line the stretches of taxa do not meet, so the window alone tells a record's
// taxon. Taxa off the line (negative, or 2^43 - 1 and up, whose last day would overflow a bigint
// range) share one unbounded range: for their records the plain comparison of taxon decides, and
// only for theirs, so that no btree on the taxon is combined in either. A report that replaces a
// standard date parameter gets the plain comparison alone (`alone`), without the window.
const LAST_TAXON_ON_LINE = 2 ** 43 - 2;
// The windows as one multirange (migration 0014): one value, which an index-only scan can compare.
const TAXA_IN_WINDOW = 'reports.taxon_days(o.taxa_taxon_list_id, o.date_start, o.date_end) && reports.taxa_span(#taxa_taxon_list_id#, #date_from#, #date_to#)';
const occurrences: ReportParam[] = [
  optional({
    name: 'date_from',
    display: 'Date from',
    description: 'Only records dated on or after this date (YYYY-MM-DD)',
    datatype: 'date',
    where: [DATES_OVERLAP, 'o.date_end >= #date_from#'],
  }),
  optional({
    name: 'date_to',
    display: 'Date to',
    description: 'Only records dated on or before this date (YYYY-MM-DD)',
    datatype: 'date',
    where: [DATES_OVERLAP, 'o.date_start <= #date_to#'],
  }),
  optional({
    name: 'edited_date_from',
    display: 'Last update date from',
    description: 'Only records last changed on or after this date (YYYY-MM-DD) or moment (ISO 8601, e.g. 2026-11-22T06:10:58+00:00)',
    datatype: 'moment',
    where: 'o.updated_on >= reports.moment_start(#edited_date_from#)',
  }),
  optional({
    name: 'edited_date_to',
    display: 'Last update date to',
    description: 'Only records last changed on or before this date (the whole day) or moment (ISO 8601)',
    datatype: 'moment',
    where: 'o.updated_on < reports.moment_end(#edited_date_to#)',
  }),
  optional({
    name: 'smpattrs',
    display: 'Sample attributes',
    description: 'Sample attribute IDs (comma-separated): each adds a column attr_sample_<id> with the sample\'s values',
    datatype: 'integer[]',
    attributeColumns: 'sample',
  }),
  optional({
    name: 'occattrs',
    display: 'Occurrence attributes',
    description: 'Occurrence attribute IDs (comma-separated): each adds a column attr_occurrence_<id> with the record\'s values',
    datatype: 'integer[]',
    attributeColumns: 'occurrence',
  }),
  optional({
    name: 'survey_id',
    display: 'Survey',
    description: 'Only records of these surveys (comma-separated IDs)',
    datatype: 'integer[]',
    where: 'o.survey_id = ANY(#survey_id#)',
    aliases: ['survey_list'],
  }),
  optional({
    name: 'taxa_taxon_list_id',
    display: 'Taxa',
    description: 'Only records of these taxa (comma-separated taxa_taxon_list IDs)',
    datatype: 'integer[]',
    where: [`(o.taxa_taxon_list_id = ANY(#taxa_taxon_list_id#) OR o.taxa_taxon_list_id BETWEEN 0 AND ${LAST_TAXON_ON_LINE})`, TAXA_IN_WINDOW],
    supersedes: [DATES_OVERLAP],
    alone: 'o.taxa_taxon_list_id = ANY(#taxa_taxon_list_id#)',
    // The taxon-and-dates index holds what the sharing filter, the taxa and the dates read (migration 0014).
    keysFirst: true,
    aliases: ['taxa_taxon_list_list'],
  }),
  optional({
    name: 'taxon_group',
    display: 'Taxon group',
    description: 'Only records of this taxon group',
    datatype: 'text',
    where: 'o.taxon_group = #taxon_group#',
  }),
  optional({
    name: 'record_status',
    display: 'Record status',
    description: 'Only records with one of these statuses (comma-separated codes)',
    datatype: 'text[]',
    where: 'o.record_status = ANY(#record_status#)',
    lookupValues: RECORD_STATUSES,
  }),
  optional({
    name: 'occ_id',
    display: 'ID',
    description: 'Only the record with this ID',
    datatype: 'integer',
    where: 'o.id = #occ_id#',
    aliases: ['occurrence_id'],
  }),
  optional({
    name: 'sample_id',
    display: 'Sample ID',
    description: 'Only records of this sample',
    datatype: 'integer',
    where: 'o.sample_id = #sample_id#',
    aliases: ['smp_id'],
  }),
  optional({
    name: 'location_name',
    display: 'Location name',
    description: 'Only records whose location name contains this text (case-insensitive)',
    datatype: 'text',
    where: "o.location_name ILIKE '%' || #location_name# || '%'",
  }),
  optional({
    name: 'bbox_min_lat',
    display: 'Minimum latitude',
    description: 'Only records at or north of this latitude',
    datatype: 'float',
    where: 'o.lat >= #bbox_min_lat#',
  }),
  optional({
    name: 'bbox_min_lon',
    display: 'Minimum longitude',
    description: 'Only records at or east of this longitude',
    datatype: 'float',
    where: 'o.lon >= #bbox_min_lon#',
  }),
  optional({
    name: 'bbox_max_lat',
    display: 'Maximum latitude',
    description: 'Only records at or south of this latitude',
    datatype: 'float',
    where: 'o.lat <= #bbox_max_lat#',
  }),
  optional({
    name: 'bbox_max_lon',
    display: 'Maximum longitude',
    description: 'Only records at or west of this longitude',
    datatype: 'float',
    where: 'o.lon <= #bbox_max_lon#',
  }),
];

export const standardParams: Readonly<Record<'occurrences', ReportParam[]>> = { occurrences };
