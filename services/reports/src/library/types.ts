// The shapes a report definition is read into and compiled from; definition.ts,
// param-values.ts and standard-params.ts depend on these and not on each other.

/** `moment`: a date, or an ISO 8601 date-time with an optional UTC offset (bound as text for reports.moment_start/_end). */
export type ParamType = 'text' | 'integer' | 'float' | 'date' | 'moment' | 'boolean' | 'integer[]' | 'text[]';

export type ReportParam = {
  name: string;
  display: string;
  description: string;
  datatype: ParamType;
  /** Absent = the parameter is required. */
  default?: string;
  /** Its condition, or conditions: one that several given parameters name is applied once. */
  where?: string | string[];
  /**
   * Conditions of other parameters that this one's conditions imply, left out when it has a
   * value: one index then serves both, and the planner is not led to combine another for them.
   */
  supersedes?: string[];
  /**
   * Its conditions on itself alone, for a report that replaces a parameter its `where` names;
   * without it, those of its conditions that name no other parameter.
   */
  alone?: string | string[];
  lookupValues?: Record<string, string>;
  /** Other names a caller may give the parameter by (the warehouse's standard names). */
  aliases?: string[];
  /** Attribute ids (integer[]) that each add a column of that custom attribute's values (smpattrs, occattrs). */
  attributeColumns?: 'sample' | 'occurrence';
  /**
   * Given, it lets a page of a report with keyed pages read its rows' ids first: its conditions
   * are answered by an index that holds every column the sharing filter and they read.
   */
  keysFirst?: boolean;
};

export type ReportColumn = { name: string; display: string; sql: string; datatype: string; visible: boolean };

export type ReportTable = 'occurrences' | 'samples' | 'occurrence_comments' | 'locations';

export type ReportDefinition = {
  path: string;
  title: string;
  description: string;
  featured: boolean;
  restricted: boolean;
  table: ReportTable;
  query: string;
  orderBy: string[];
  /**
   * A page may be read as the ids of its rows first, then those rows (`keyed_pages`): the query
   * reads its table alone (no JOIN, GROUP BY, DISTINCT or UNION), and its order names that table's columns only.
   */
  keyedPages: boolean;
  params: ReportParam[];
  columns: ReportColumn[];
};

/** The caller's row filter, e.g. { sql: 'o.website_id = $1 AND o.created_by_id = $2', values: ['1', '7'] }. */
export type Visibility = { sql: string; values: unknown[] };
