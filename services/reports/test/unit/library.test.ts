import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from '../../src/library/catalogue.ts';
import { ParamError, compileReport } from '../../src/library/compile.ts';
import type { RunOptions } from '../../src/library/compile.ts';
import { ReportDefinitionError, parseReport } from '../../src/library/definition.ts';
import type { ReportDefinition, ReportParam, Visibility } from '../../src/library/types.ts';

const LIBRARY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../definitions');
const shipped = loadCatalogue([LIBRARY_ROOT]);
const shippedReports = [...shipped.reports.values()];

const NO_VISIBILITY: Visibility = { sql: '', values: [] };
const PAGE: RunOptions = { limit: 100, offset: 0 };
const TABLE_ALIASES: Record<string, string> = { occurrences: 'o', samples: 's', occurrence_comments: 'c', locations: 'l' };

const PLAUSIBLE_VALUES: Record<string, string> = {
  text: 'Bombus',
  integer: '12',
  float: '51.5',
  date: '2020-03-04',
  boolean: 't',
  'integer[]': '1,2',
  'text[]': 'a,b',
};

const INJECTIONS = [
  "'; DROP TABLE reports.occurrences; --",
  "x' OR '1'='1",
  '1) OR (1=1',
  '#sharing_filter#',
  '$$; DROP TABLE x; $$',
  "\\'; SELECT pg_sleep(10); --",
];

type XmlParts = {
  reportAttributes?: string;
  table?: string;
  query?: string;
  params?: string;
  columns?: string;
};

function reportXml(parts: XmlParts = {}): string {
  const table = parts.table ?? 'occurrences';
  const query = parts.query ?? 'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# #filters#';
  const params = parts.params ?? '';
  const columns = parts.columns ?? '<column name="occurrence_id" display="ID" sql="o.id" datatype="integer" />';
  return `<report title="Test report" description="For tests" table="${table}" ${parts.reportAttributes ?? ''}>
  <query>${query}</query>
  <order_bys><order_by>o.id DESC</order_by></order_bys>
  <params>${params}</params>
  <columns>${columns}</columns>
</report>`;
}

function plausibleValue(param: ReportParam): string {
  if (param.lookupValues !== undefined) {
    return Object.keys(param.lookupValues)[0];
  }
  return PLAUSIBLE_VALUES[param.datatype];
}

function plausibleValues(definition: ReportDefinition, which: (param: ReportParam) => boolean): Record<string, string> {
  return Object.fromEntries(definition.params.filter(which).map((param) => [param.name, plausibleValue(param)]));
}

function requiredValues(definition: ReportDefinition): Record<string, string> {
  return plausibleValues(definition, (param) => param.default === undefined);
}

function visibilityFor(definition: ReportDefinition): Visibility {
  const alias = TABLE_ALIASES[definition.table];
  return { sql: `${alias}.website_id = $1 AND ${alias}.created_by_id = $2`, values: ['1', '7'] };
}

function paramErrorOf(run: () => unknown): ParamError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ParamError);
    return error as ParamError;
  }
  throw new Error('expected a ParamError');
}

/** Parentheses balance outside quoted strings and identifiers. */
function hasBalancedParentheses(sql: string): boolean {
  let depth = 0;
  for (const char of sql.replace(/'[^']*'|"[^"]*"/g, '')) {
    depth += char === '(' ? 1 : char === ')' ? -1 : 0;
    if (depth < 0) {
      return false;
    }
  }
  return depth === 0;
}

function placeholderNumbers(sql: string): number[] {
  return [...new Set([...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])))].sort((a, b) => a - b);
}

describe('parseReport', () => {
  it('when the XML is a valid report, then its attributes, query, order, params and columns are read', () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({
        reportAttributes: 'featured="true" restricted="false"',
        params: `<param name="survey_id" display="Survey" description="Only this survey" datatype="integer" default="">
          <where>o.survey_id = #survey_id#</where></param>
          <param name="status" display="Status" datatype="text" lookup_values="C:Not reviewed,V:Accepted" />`,
        columns: `<column name="occurrence_id" display="ID" sql="o.id" datatype="integer" />
          <column name="taxon" display="Species" sql="o.taxon" datatype="text" visible="false" />`,
      }),
    );

    expect(definition).toMatchObject({
      path: 'library/test/report',
      title: 'Test report',
      description: 'For tests',
      featured: true,
      restricted: false,
      table: 'occurrences',
      query: 'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# #filters#',
      orderBy: ['o.id DESC'],
      keyedPages: false,
    });
    expect(definition.params).toEqual([
      { name: 'survey_id', display: 'Survey', description: 'Only this survey', datatype: 'integer', default: '', where: 'o.survey_id = #survey_id#' },
      { name: 'status', display: 'Status', description: '', datatype: 'text', lookupValues: { C: 'Not reviewed', V: 'Accepted' } },
    ]);
    expect(definition.columns).toEqual([
      { name: 'occurrence_id', display: 'ID', sql: 'o.id', datatype: 'integer', visible: true },
      { name: 'taxon', display: 'Species', sql: 'o.taxon', datatype: 'text', visible: false },
    ]);
  });

  it('when a report with keyed pages reads its table alone in an order of its columns, then it parses, conditions such as IS DISTINCT FROM included', () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({ reportAttributes: 'keyed_pages="true"', query: 'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# AND o.taxon IS DISTINCT FROM o.preferred_taxon' }),
    );
    expect(definition.keyedPages).toBe(true);
  });

  it('when featured and restricted are absent, then both are false', () => {
    const definition = parseReport('library/test/report', reportXml());

    expect(definition.featured).toBe(false);
    expect(definition.restricted).toBe(false);
  });

  it('when the SQL uses XML entities or CDATA, then the query holds the decoded text', () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({ query: '<![CDATA[SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# AND o.id < 5]]> #filters#' }),
    );

    expect(definition.query).toContain('o.id < 5');
  });

  it('when standard_params="occurrences", then every standard param is added, optional, with a where on alias o (or adding attribute columns)', () => {
    const definition = parseReport('library/test/report', reportXml({ reportAttributes: 'standard_params="occurrences"' }));

    expect(definition.params.map((param) => param.name)).toEqual([
      'date_from', 'date_to', 'edited_date_from', 'edited_date_to', 'smpattrs', 'occattrs', 'survey_id', 'taxa_taxon_list_id', 'taxon_group',
      'record_status', 'occ_id', 'sample_id', 'location_name', 'bbox_min_lat', 'bbox_min_lon', 'bbox_max_lat', 'bbox_max_lon',
    ]);
    for (const param of definition.params) {
      expect(param.default).toBe('');
      if (param.attributeColumns) expect(param.where).toBeUndefined();
      else for (const condition of [param.where!].flat()) expect(condition).toMatch(new RegExp(`\\bo\\.\\w+.*#${param.name}#`));
    }
    expect(definition.params.find((param) => param.name === 'taxa_taxon_list_id')).toMatchObject({
      datatype: 'integer[]',
      where: [
        '(o.taxa_taxon_list_id = ANY(#taxa_taxon_list_id#) OR o.taxa_taxon_list_id BETWEEN 0 AND 8796093022206)',
        'reports.taxon_days(o.taxa_taxon_list_id, o.date_start, o.date_end) && reports.taxa_span(#taxa_taxon_list_id#, #date_from#, #date_to#)',
      ],
    });
  });

  it('when a report param has the name of a standard param, then the report param replaces it', () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({
        reportAttributes: 'standard_params="occurrences"',
        params: '<param name="survey_id" display="My survey" datatype="integer" default="3"><where>o.survey_id &lt;&gt; #survey_id#</where></param>',
      }),
    );

    const surveyParams = definition.params.filter((param) => param.name === 'survey_id');
    expect(surveyParams).toEqual([
      { name: 'survey_id', display: 'My survey', description: '', datatype: 'integer', default: '3', where: 'o.survey_id <> #survey_id#' },
    ]);
  });

  it('when a report replaces a standard date param, then the standard taxa and other date params filter on themselves alone, with no window or overlap naming it', () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({
        reportAttributes: 'standard_params="occurrences"',
        params: '<param name="date_from" display="Entered from" datatype="moment"><where>o.created_on &gt;= reports.moment_start(#date_from#)</where></param>',
      }),
    );

    expect(definition.params.find((param) => param.name === 'taxa_taxon_list_id')).toMatchObject({ where: 'o.taxa_taxon_list_id = ANY(#taxa_taxon_list_id#)' });
    expect(definition.params.find((param) => param.name === 'taxa_taxon_list_id')).not.toHaveProperty('supersedes');
    const compiled = compileReport(definition, { taxa_taxon_list_id: '3', date_from: '2024-01-01', date_to: '2024-12-31' }, { sql: 'TRUE', values: [] }, PAGE);
    expect(compiled.sql).not.toContain('taxa_span');
    expect(compiled.sql).toContain('(o.taxa_taxon_list_id = ANY($3::bigint[]))');
    // The standard date_to keeps its comparison, without the overlap that names the report's own date_from.
    expect(compiled.sql).toContain('(o.date_start <= $2::date)');
    expect(compiled.sql).not.toContain('daterange');
  });

  it.each([
    ['the table is unknown', reportXml({ table: 'users' }), /unknown table "users"/],
    ['the table attribute is missing', reportXml({ table: '' }), /unknown table/],
    ['a column has no name', reportXml({ columns: '<column display="ID" sql="o.id" />' }), /name and sql/],
    ['a column has no sql', reportXml({ columns: '<column name="occurrence_id" display="ID" />' }), /name and sql/],
    ['a column name is not an identifier', reportXml({ columns: '<column name="a&quot;b" sql="o.id" />' }), /column name/],
    ['no column is defined', reportXml({ columns: '' }), /no <column>/],
    [
      'the query names an unknown placeholder',
      reportXml({ query: 'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# AND o.id = #nothing#' }),
      /#nothing#/,
    ],
    [
      'a where names an unknown placeholder',
      reportXml({ params: '<param name="a" datatype="integer" default=""><where>o.id = #b#</where></param>' }),
      /#b#/,
    ],
    ['the query has no #sharing_filter#', reportXml({ query: 'SELECT #columns# FROM reports.occurrences o WHERE TRUE #filters#' }), /#sharing_filter#/],
    [
      'the table is read without its alias',
      reportXml({ query: 'SELECT #columns# FROM reports.occurrences occ WHERE #sharing_filter#' }),
      /alias o/,
    ],
    [
      'the query has a $n placeholder',
      reportXml({ query: 'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# AND o.id = $1' }),
      /\$n/,
    ],
    ['a param datatype is unknown', reportXml({ params: '<param name="a" datatype="geometry" default="" />' }), /unknown datatype/],
    ['a default does not fit the datatype', reportXml({ params: '<param name="a" datatype="integer" default="x" />' }), /default/],
    ['a param takes a reserved name', reportXml({ params: '<param name="filters" datatype="text" default="" />' }), /param name/],
    ['featured is not true or false', reportXml({ reportAttributes: 'featured="yes"' }), /featured/],
    [
      'a report with keyed pages groups its rows',
      reportXml({ reportAttributes: 'keyed_pages="true"', query: 'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# GROUP BY o.id' }),
      /keyed_pages/,
    ],
    [
      'a report with keyed pages joins another table',
      reportXml({ reportAttributes: 'keyed_pages="true"', query: 'SELECT #columns# FROM reports.occurrences o JOIN reports.samples s ON s.id = o.sample_id WHERE #sharing_filter#' }),
      /keyed_pages/,
    ],
    [
      'a report with keyed pages selects distinct rows',
      reportXml({ reportAttributes: 'keyed_pages="true"', query: 'SELECT DISTINCT #columns# FROM reports.occurrences o WHERE #sharing_filter#' }),
      /keyed_pages/,
    ],
    [
      'a report with keyed pages is ordered by an expression',
      reportXml({ reportAttributes: 'keyed_pages="true"' }).replace('<order_by>o.id DESC</order_by>', '<order_by>lower(o.taxon)</order_by>'),
      /keyed_pages/,
    ],
    ['standard params are asked for another table', reportXml({ table: 'samples', reportAttributes: 'standard_params="occurrences"' }), /table/],
    ['the XML is malformed', '<report title="x" table="occurrences"><query>SELECT</report>', /invalid XML/],
    ['the root element is not <report>', '<reports title="x" />', /<report>/],
  ])('when %s, then parseReport throws a ReportDefinitionError naming the path', (_, xml, problem) => {
    const parse = () => parseReport('library/broken/report', xml);

    expect(parse).toThrow(ReportDefinitionError);
    expect(parse).toThrow(/library\/broken\/report/);
    expect(parse).toThrow(problem);
  });
});

describe('loadCatalogue', () => {
  const temporaryRoots: string[] = [];

  function writeTree(files: Record<string, string>): string {
    const root = mkdtempSync(join(tmpdir(), 'reports-library-'));
    temporaryRoots.push(root);
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), content);
    }
    return root;
  }

  afterEach(() => {
    for (const root of temporaryRoots.splice(0)) {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('when the shipped library is loaded, then library is the only top-level folder and holds the sub-folders sorted by title', () => {
    expect(shipped.folders.get('')).toMatchObject({ path: '', folders: ['library'], reports: [] });
    expect(shipped.folders.get('library')).toMatchObject({
      title: 'Library',
      folders: ['library/locations', 'library/occurrences', 'library/samples', 'library/summary', 'library/taxa'],
      reports: [],
    });
    expect([...shipped.folders.keys()].sort()).toEqual([
      '',
      'library',
      'library/locations',
      'library/occurrences',
      'library/samples',
      'library/summary',
      'library/taxa',
    ]);
  });

  it('when the shipped library is loaded, then every folder has a title and a readme description', () => {
    for (const folder of shipped.folders.values()) {
      if (folder.path === '') {
        continue;
      }
      expect(folder.title).toMatch(/^[A-Z]/);
      expect(folder.description).toMatch(/\S/);
      expect(folder.description).toBe(folder.description?.trim());
    }
    expect(shipped.folders.get('library/summary')?.description).toBe('Record counts summarised by month and by survey.');
  });

  it('when the shipped library is loaded, then every listed report exists and the folder lists are sorted by title', () => {
    expect(shipped.folders.get('library/occurrences')?.reports).toEqual([
      'library/occurrences/explore_list',
      'library/occurrences/filterable_explore_list',
      'library/occurrences/occurrence_associations',
      'library/occurrences/occurrence_list',
      'library/occurrences/list_for_elastic_all',
      'library/occurrences/recent_records',
      'library/occurrences/verification_queue',
    ]);
    const listed = [...shipped.folders.values()].flatMap((folder) => folder.reports);
    expect(listed.sort()).toEqual([...shipped.reports.keys()].sort());
    for (const folder of shipped.folders.values()) {
      const titles = folder.reports.map((path) => shipped.reports.get(path)?.title ?? '');
      expect(titles).toEqual([...titles].sort((a, b) => a.localeCompare(b)));
    }
  });

  it('when the shipped library is loaded, then only filterable_explore_list and recent_records are featured and only list_for_elastic_all is restricted', () => {
    const featured = shippedReports.filter((report) => report.featured).map((report) => report.path);
    const restricted = shippedReports.filter((report) => report.restricted).map((report) => report.path);

    expect(featured.sort()).toEqual(['library/occurrences/filterable_explore_list', 'library/occurrences/recent_records']);
    expect(restricted).toEqual(['library/occurrences/list_for_elastic_all']);
  });

  it('when the shipped reports are loaded, then each reads its table through the service alias and has a sharing filter', () => {
    expect(shippedReports).toHaveLength(12);
    for (const report of shippedReports) {
      expect(report.query).toMatch(new RegExp(`FROM reports\\.${report.table} ${TABLE_ALIASES[report.table]}\\b`));
      expect(report.query).toMatch(/WHERE #sharing_filter#/);
      expect(report.title).not.toBe('');
    }
  });

  it('when the explore lists are loaded, then their columns start with occurrence_id and taxon', () => {
    const filterable = shipped.reports.get('library/occurrences/filterable_explore_list');
    expect(filterable?.columns.map((column) => column.name)).toEqual([
      'occurrence_id', 'taxon', 'preferred_taxon', 'default_common_name', 'taxon_group', 'date_start', 'date_end', 'date_type',
      'entered_sref', 'location_name', 'recorder_names', 'record_status', 'survey_title', 'website_id', 'created_by_id',
      'lat', 'lon', 'updated_on',
    ]);
    expect(filterable?.orderBy).toEqual(['o.id DESC']);
    const explore = shipped.reports.get('library/occurrences/explore_list');
    expect(explore?.columns.slice(0, 2).map((column) => column.name)).toEqual(['occurrence_id', 'taxon']);
    expect(explore?.params.some((param) => param.name === 'edited_date_from')).toBe(true);
  });

  it('when the locations report is loaded, then location_type_id is its one required param', () => {
    const report = shipped.reports.get('library/locations/locations_list_mapping');

    expect(report?.table).toBe('locations');
    expect(report?.params).toEqual([expect.objectContaining({ name: 'location_type_id', datatype: 'integer', where: 'l.location_type_id = #location_type_id#' })]);
    expect(report?.params[0].default).toBeUndefined();
    expect(report?.columns.map((column) => column.name)).toEqual(['location_id', 'name', 'code', 'centroid_sref', 'centroid_sref_system', 'lat', 'lon']);
  });

  it('when the feed report is loaded, then it has every read-model occurrence column and last_id defaulting to 0', () => {
    const report = shipped.reports.get('library/occurrences/list_for_elastic_all');

    expect(report?.columns).toHaveLength(39);
    expect(report?.params).toEqual([expect.objectContaining({ name: 'last_id', datatype: 'integer', default: '0', where: 'o.id > #last_id#' })]);
    expect(report?.orderBy).toEqual(['o.id ASC']);
  });

  it('when several roots are given, then their folders merge and a later report of the same path replaces the earlier one', () => {
    const extra = writeTree({
      'library/occurrences/explore_list.xml': reportXml().replace('Test report', 'Local explore list'),
      'library/my_local_reports/readme.txt': '  Our own reports.\n',
      'library/my_local_reports/mine.xml': reportXml(),
    });

    const catalogue = loadCatalogue([LIBRARY_ROOT, extra]);

    expect(catalogue.reports.get('library/occurrences/explore_list')?.title).toBe('Local explore list');
    expect(catalogue.reports.get('library/occurrences/filterable_explore_list')).toBeDefined();
    expect(catalogue.folders.get('library/occurrences')?.reports.filter((path) => path.endsWith('/explore_list'))).toHaveLength(1);
    expect(catalogue.folders.get('library/my_local_reports')).toEqual({
      path: 'library/my_local_reports',
      title: 'My local reports',
      description: 'Our own reports.',
      folders: [],
      reports: ['library/my_local_reports/mine'],
    });
    expect(catalogue.folders.get('library')?.folders).toContain('library/my_local_reports');
  });

  it('when a report file does not parse, then loadCatalogue throws naming the file', () => {
    const root = writeTree({ 'library/bad/broken.xml': reportXml({ table: 'nowhere' }) });

    expect(() => loadCatalogue([root])).toThrow(ReportDefinitionError);
    expect(() => loadCatalogue([root])).toThrow(/broken\.xml/);
  });

  it('when a file or folder is not XML or is hidden, then it is ignored', () => {
    const root = writeTree({ 'library/notes.md': '# notes', '.git/config.xml': 'not a report', 'library/ok.xml': reportXml() });

    const catalogue = loadCatalogue([root]);

    expect([...catalogue.reports.keys()]).toEqual(['library/ok']);
    expect([...catalogue.folders.keys()]).toEqual(['', 'library']);
  });
});

describe('compileReport', () => {
  const everyType = parseReport(
    'library/test/every_type',
    reportXml({
      params: ['text', 'integer', 'float', 'date', 'boolean', 'integer[]', 'text[]']
        .map((type) => `<param name="p_${type.replace('[]', '_list')}" datatype="${type}" default="" />`)
        .join(''),
      query:
        'SELECT #columns# FROM reports.occurrences o WHERE #sharing_filter# AND #p_text# IS NOT NULL AND #p_integer# IS NOT NULL' +
        ' AND #p_float# IS NOT NULL AND #p_date# IS NOT NULL AND #p_boolean# IS NOT NULL AND #p_integer_list# IS NOT NULL' +
        ' AND #p_text_list# IS NOT NULL',
    }),
  );
  const filtered = parseReport(
    'library/test/filtered',
    reportXml({
      params: `<param name="survey_id" datatype="integer" default=""><where>o.survey_id = #survey_id#</where></param>
        <param name="taxon" datatype="text" default=""><where>o.taxon = #taxon# OR o.preferred_taxon = #taxon#</where></param>
        <param name="status" datatype="text" lookup_values="C:Not reviewed,V:Accepted" default="C"><where>o.record_status = #status#</where></param>`,
      columns: `<column name="occurrence_id" display="ID" sql="o.id" datatype="integer" />
        <column name="taxon" display="Species" sql="o.taxon" datatype="text" />
        <column name="survey_id" display="Survey" sql="o.survey_id" datatype="integer" />`,
    }),
  );

  it('when visibility has values, then they keep $1..$k and params are numbered from $k+1', () => {
    const compiled = compileReport(filtered, { survey_id: '4', taxon: 'Bombus' }, { sql: 'o.website_id = $1 AND o.created_by_id = $2', values: ['1', '7'] }, PAGE);

    expect(compiled.sql).toBe(
      'SELECT o.id AS "occurrence_id", o.taxon AS "taxon", o.survey_id AS "survey_id" FROM reports.occurrences o' +
        ' WHERE (o.website_id = $1 AND o.created_by_id = $2)  AND (o.survey_id = $3::bigint)' +
        ' AND (o.taxon = $4::text OR o.preferred_taxon = $4::text) AND (o.record_status = $5::text)' +
        ' ORDER BY o.id DESC LIMIT $6 OFFSET $7',
    );
    expect(compiled.values).toEqual(['1', '7', '4', 'Bombus', 'C', 100, 0]);
  });

  it('when visibility is empty, then the sharing filter is TRUE and params start at $1', () => {
    const compiled = compileReport(filtered, { survey_id: '4' }, NO_VISIBILITY, PAGE);

    expect(compiled.sql).toContain('WHERE TRUE  AND (o.survey_id = $1::bigint) AND (o.record_status = $2::text)');
    expect(compiled.values).toEqual(['4', 'C', 100, 0]);
  });

  it('when a param of every datatype is given, then each is bound with its cast', () => {
    const compiled = compileReport(
      everyType,
      { p_text: ' a b ', p_integer: '-12', p_float: '1.5e3', p_date: '2020-02-29', p_boolean: 'F', p_integer_list: '1, 2,3', p_text_list: 'x,y z' },
      NO_VISIBILITY,
      PAGE,
    );

    expect(compiled.sql).toContain(
      '$1::text IS NOT NULL AND $2::bigint IS NOT NULL AND $3::float8 IS NOT NULL AND $4::date IS NOT NULL' +
        ' AND $5::boolean IS NOT NULL AND $6::bigint[] IS NOT NULL AND $7::text[] IS NOT NULL',
    );
    expect(compiled.values).toEqual([' a b ', '-12', '1.5e3', '2020-02-29', 'false', ['1', '2', '3'], ['x', 'y z'], 100, 0]);
  });

  it.each(['true', 't', '1', 'TRUE'])('when a boolean is given as %s, then true is bound', (value) => {
    expect(compileReport(everyType, { p_boolean: value }, NO_VISIBILITY, PAGE).values[4]).toBe('true');
  });

  it('when an optional param used in the query has no value, then NULL is bound', () => {
    const compiled = compileReport(everyType, {}, NO_VISIBILITY, PAGE);

    expect(compiled.values).toEqual([null, null, null, null, null, null, null, 100, 0]);
  });

  it.each([
    ['p_integer', '1.5'],
    ['p_integer', '12abc'],
    ['p_integer', '99999999999999999999'],
    ['p_float', '1,5'],
    ['p_float', '1e999'],
    ['p_date', '2021-02-29'],
    ['p_date', '04/03/2020'],
    ['p_date', '2020-3-4'],
    ['p_boolean', 'yes'],
    ['p_integer_list', '1,,2'],
    ['p_integer_list', '1,x'],
    ['p_text', 'nul\0byte'],
  ])('when %s is given the invalid value %j, then a 400 ParamError names it', (name, value) => {
    const error = paramErrorOf(() => compileReport(everyType, { [name]: value }, NO_VISIBILITY, PAGE));

    expect(error.status).toBe(400);
    expect(error.message).toBe(`Invalid value for parameter ${name}`);
    expect(error.parameters).toEqual([name]);
  });

  it('when a value is not one of the lookup keys, then it is invalid', () => {
    const error = paramErrorOf(() => compileReport(filtered, { status: 'X' }, NO_VISIBILITY, PAGE));

    expect(error.message).toBe('Invalid value for parameter status');
  });

  it('when required params are missing, then one ParamError lists all of them', () => {
    const definition = parseReport(
      'library/test/required',
      reportXml({
        params: `<param name="a" datatype="integer"><where>o.id = #a#</where></param>
          <param name="b" datatype="text"><where>o.taxon = #b#</where></param>
          <param name="c" datatype="text" default=""><where>o.taxon = #c#</where></param>`,
      }),
    );

    const error = paramErrorOf(() => compileReport(definition, { b: '', c: 'x', a_extra: '1' }, NO_VISIBILITY, PAGE));

    expect(error.status).toBe(400);
    expect(error.message).toBe('Missing parameters: a, b');
    expect(error.parameters).toEqual(['a', 'b']);
  });

  it('when the required location_type_id is missing from the shipped locations report, then it is named', () => {
    const report = shipped.reports.get('library/locations/locations_list_mapping') as ReportDefinition;

    expect(paramErrorOf(() => compileReport(report, {}, visibilityFor(report), PAGE)).message).toBe('Missing parameters: location_type_id');
  });

  it('when unknown params or empty values are given, then they are ignored, and the unknown ones are named', () => {
    const compiled = compileReport(filtered, { nonsense: "'; DROP", survey_id: '' }, NO_VISIBILITY, PAGE);

    expect(compiled.sql).not.toContain('survey_id = ');
    expect(compiled.values).toEqual(['C', 100, 0]);
    expect(compiled.unknownParameters).toEqual(['nonsense']);
  });

  it("when a standard param is given by the warehouse's standard name or another alias, then it filters as by its own name", () => {
    const report = shipped.reports.get('library/occurrences/explore_list') as ReportDefinition;
    const byName = compileReport(report, { occ_id: '7', sample_id: '3', survey_id: '1,2', taxa_taxon_list_id: '5' }, NO_VISIBILITY, PAGE);

    const byAlias = compileReport(report, { occurrence_id: '7', smp_id: '3', survey_list: '1,2', taxa_taxon_list_list: '5' }, NO_VISIBILITY, PAGE);

    expect(byAlias.sql).toBe(byName.sql);
    expect(byAlias.values).toEqual(byName.values);
    expect(byAlias.values).toEqual(expect.arrayContaining(['7', '3', ['1', '2'], ['5']]));
    expect(byAlias.unknownParameters).toEqual([]);
  });

  it('when a param and its alias give different values, then a ParamError names both; the same value is accepted', () => {
    const report = shipped.reports.get('library/occurrences/explore_list') as ReportDefinition;

    const error = paramErrorOf(() => compileReport(report, { occ_id: '7', occurrence_id: '8' }, NO_VISIBILITY, PAGE));

    expect(error.message).toBe('Parameters occ_id and occurrence_id give different values');
    expect(compileReport(report, { occ_id: '7', occurrence_id: '7' }, NO_VISIBILITY, PAGE).values).toContain('7');
  });

  it('when an alias gives a bad value, then the ParamError names the alias the caller used', () => {
    const report = shipped.reports.get('library/occurrences/explore_list') as ReportDefinition;

    expect(paramErrorOf(() => compileReport(report, { smp_id: 'x' }, NO_VISIBILITY, PAGE)).message).toBe('Invalid value for parameter smp_id');
  });

  it("when a report's own param takes the name of a standard alias, then the alias is the report's param only", () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({ reportAttributes: 'standard_params="occurrences"', params: '<param name="smp_id" datatype="text" default="" />' }),
    );

    expect(definition.params.find((param) => param.name === 'sample_id')?.aliases).toEqual([]);
    expect(compileReport(definition, { smp_id: 'abc' }, NO_VISIBILITY, PAGE).unknownParameters).toEqual([]);
  });

  it('when a param has a non-empty default and is not given, then its where applies with the default', () => {
    const report = shipped.reports.get('library/occurrences/list_for_elastic_all') as ReportDefinition;

    const compiled = compileReport(report, {}, visibilityFor(report), PAGE);

    expect(compiled.sql).toContain('AND (o.id > $3::bigint)');
    expect(compiled.values).toEqual(['1', '7', '0', 100, 0]);
  });

  it('when standard params are given, then their filters are bound on alias o', () => {
    const report = shipped.reports.get('library/occurrences/filterable_explore_list') as ReportDefinition;

    const compiled = compileReport(
      report,
      { taxa_taxon_list_id: '5,6', record_status: 'C,V', location_name: 'Wood', bbox_min_lat: '50.1' },
      visibilityFor(report),
      PAGE,
    );

    expect(compiled.sql).toContain(
      'AND ((o.taxa_taxon_list_id = ANY($3::bigint[]) OR o.taxa_taxon_list_id BETWEEN 0 AND 8796093022206)) ' +
        'AND (reports.taxon_days(o.taxa_taxon_list_id, o.date_start, o.date_end) && reports.taxa_span($3::bigint[], $4::date, $5::date)) ' +
        "AND (o.record_status = ANY($6::text[])) AND (o.location_name ILIKE '%' || $7::text || '%') AND (o.lat >= $8::float8)",
    );
    // The taxa's window is open at both ends when no date is given.
    expect(compiled.values).toEqual(['1', '7', ['5', '6'], null, null, ['C', 'V'], 'Wood', '50.1', 100, 0]);
  });

  it('when injection strings are given for every param of every shipped report, then they reach only the bound values', () => {
    let accepted = 0;
    for (const report of shippedReports) {
      for (const param of report.params) {
        for (const injection of INJECTIONS) {
          const given = { ...requiredValues(report), [param.name]: injection };
          try {
            const compiled = compileReport(report, given, visibilityFor(report), PAGE);
            expect(compiled.sql).not.toContain(injection);
            expect(compiled.countSql).not.toContain(injection);
            expect(compiled.values.flat()).toContain(injection.trim());
            expect(compiled.countValues.flat()).toContain(injection.trim());
            accepted += 1;
          } catch (error) {
            expect(error).toBeInstanceOf(ParamError);
            expect((error as ParamError).message).toBe(`Invalid value for parameter ${param.name}`);
          }
        }
      }
    }
    expect(accepted).toBeGreaterThan(0);
  });

  it('when orderby names a selected column, then it sorts by it first with the report order as tie-breaker', () => {
    const compiled = compileReport(filtered, {}, NO_VISIBILITY, { ...PAGE, orderBy: 'taxon', sortDir: 'DESC' });

    expect(compiled.sql).toMatch(/ ORDER BY "taxon" DESC, o\.id DESC LIMIT \$2 OFFSET \$3$/);
  });

  it('when orderby has no sortdir, then it sorts ascending', () => {
    expect(compileReport(filtered, {}, NO_VISIBILITY, { ...PAGE, orderBy: 'taxon' }).sql).toContain('ORDER BY "taxon" ASC');
  });

  it.each([
    ['an unknown column', { orderBy: 'o.id; DROP TABLE x' }],
    ['a column narrowed away', { orderBy: 'taxon', columns: ['occurrence_id'] }],
  ])('when orderby names %s, then a ParamError says the orderby is invalid', (_, options) => {
    const error = paramErrorOf(() => compileReport(filtered, {}, NO_VISIBILITY, { ...PAGE, ...options }));

    expect(error.message).toBe('Invalid orderby parameter');
  });

  it('when columns are narrowed, then only those are selected and returned, in the order asked for', () => {
    const compiled = compileReport(filtered, {}, NO_VISIBILITY, { ...PAGE, columns: ['survey_id', 'occurrence_id'] });

    expect(compiled.sql).toMatch(/^SELECT o\.survey_id AS "survey_id", o\.id AS "occurrence_id" FROM /);
    expect(compiled.columns.map((column) => column.name)).toEqual(['survey_id', 'occurrence_id']);
  });

  it('when unknown columns are asked for, then a ParamError lists them', () => {
    const error = paramErrorOf(() => compileReport(filtered, {}, NO_VISIBILITY, { ...PAGE, columns: ['taxon', 'x', 'y'] }));

    expect(error.message).toBe('Unknown columns: x, y');
  });

  it('when limit and offset are given, then they are bound as the last values', () => {
    const compiled = compileReport(filtered, {}, { sql: 'o.website_id = $1', values: ['3'] }, { limit: 10, offset: 20 });

    expect(compiled.sql).toMatch(/ LIMIT \$3 OFFSET \$4$/);
    expect(compiled.values).toEqual(['3', 'C', 10, 20]);
  });

  it('when a report is compiled, then the count SQL wraps the same filtered query without order or limit', () => {
    const compiled = compileReport(filtered, { survey_id: '4' }, { sql: 'o.website_id = $1', values: ['3'] }, { ...PAGE, orderBy: 'taxon' });

    expect(compiled.countSql).toBe(
      'SELECT count(*) AS count FROM (SELECT o.id AS "occurrence_id", o.taxon AS "taxon", o.survey_id AS "survey_id"' +
        ' FROM reports.occurrences o WHERE (o.website_id = $1)  AND (o.survey_id = $2::bigint) AND (o.record_status = $3::text)) AS counted',
    );
    expect(compiled.countValues).toEqual(['3', '4', 'C']);
    expect(compiled.sql.startsWith(compiled.countSql.slice('SELECT count(*) AS count FROM ('.length, -') AS counted'.length))).toBe(true);
  });

  it('when date_from and date_to are both given, then their shared range overlap is asked once, with both bounds; with one, the other bound is open; with taxa, the window of the taxa carries them instead', () => {
    const report = shipped.reports.get('library/occurrences/filterable_explore_list') as ReportDefinition;
    const overlap =
      /daterange\(o\.date_start, greatest\(o\.date_start, o\.date_end\), '\[\]'\) && daterange\(CASE WHEN \$(\d+)::date > \$(\d+)::date THEN \$\2::date ELSE \$\1::date END, \$\2::date, '\[\]'\)/g;

    const both = compileReport(report, { date_from: '2021-03-01', date_to: '2021-03-31' }, { sql: 'TRUE', values: [] }, PAGE);
    const asked = [...both.sql.matchAll(overlap)];
    expect(asked).toHaveLength(1);
    expect([both.values[Number(asked[0][1]) - 1], both.values[Number(asked[0][2]) - 1]]).toEqual(['2021-03-01', '2021-03-31']);
    expect(both.sql).toContain('(o.date_end >= $1::date)');
    expect(both.sql).toContain('(o.date_start <= $2::date)');

    const from = compileReport(report, { date_from: '2021-03-01' }, { sql: 'TRUE', values: [] }, PAGE);
    const fromOnly = [...from.sql.matchAll(overlap)];
    expect(fromOnly).toHaveLength(1);
    expect(from.values[Number(fromOnly[0][2]) - 1]).toBeNull();
    expect(from.sql).not.toContain('o.date_start <=');

    // With taxa, their window on the taxon-and-dates index carries both bounds, and the overlap is left out.
    const withTaxa = compileReport(report, { taxa_taxon_list_id: '3', date_from: '2021-03-01', date_to: '2021-03-31' }, { sql: 'TRUE', values: [] }, PAGE);
    expect([...withTaxa.sql.matchAll(overlap)]).toHaveLength(0);
    const window = /reports\.taxa_span\(\$(\d+)::bigint\[\], \$(\d+)::date, \$(\d+)::date\)/.exec(withTaxa.sql)!;
    expect(window.slice(1).map((n) => withTaxa.values[Number(n) - 1])).toEqual([['3'], '2021-03-01', '2021-03-31']);
    expect(withTaxa.sql).toContain('(o.date_end >= $1::date)');
    expect(withTaxa.sql).toContain('(o.date_start <= $2::date)');
  });

  it('when a report with keyed pages is asked for a page of taxa, then the page reads the ids of its rows first, with the conditions, order and paging, then their rows in the same order', () => {
    const report = shipped.reports.get('library/occurrences/filterable_explore_list') as ReportDefinition;
    const given = { taxa_taxon_list_id: '3', date_from: '2021-03-01', date_to: '2021-03-31', survey_id: '4' };
    const keyed = compileReport(report, given, visibilityFor(report), { limit: 100, offset: 200 });
    const oneStatement = compileReport({ ...report, keyedPages: false }, given, visibilityFor(report), { limit: 100, offset: 200 });

    const ids = /^SELECT (.+) FROM reports\.occurrences o WHERE o\.id IN \(SELECT o\.id AS "page_key" FROM reports\.occurrences o WHERE (.+) ORDER BY o\.id DESC LIMIT \$\d+ OFFSET \$\d+\) ORDER BY o\.id DESC$/.exec(
      keyed.sql.replace(/\s+/g, ' '),
    );
    expect(ids).not.toBeNull();
    // The subquery holds every condition of the one statement, and the page its columns.
    const plain = /^SELECT (.+) FROM reports\.occurrences o WHERE (.+) ORDER BY o\.id DESC LIMIT \$\d+ OFFSET \$\d+$/.exec(oneStatement.sql.replace(/\s+/g, ' '))!;
    expect(ids![1]).toBe(plain[1]);
    expect(ids![2]).toBe(plain[2]);
    expect(keyed.values).toEqual(oneStatement.values);
    expect(keyed.values.slice(-2)).toEqual([100, 200]);
    expect([keyed.countSql, keyed.countValues]).toEqual([oneStatement.countSql, oneStatement.countValues]);
  });

  it('when a page gives no taxa, asks for its own order, or is a download, or its report has no keyed pages, then it is read in one statement', () => {
    const explore = shipped.reports.get('library/occurrences/filterable_explore_list') as ReportDefinition;
    const recent = shipped.reports.get('library/occurrences/recent_records') as ReportDefinition;
    const taxa = { taxa_taxon_list_id: '3', date_from: '2021-03-01' };
    for (const [report, given, options] of [
      [explore, { date_from: '2021-03-01', survey_id: '4' }, PAGE],
      [explore, taxa, { ...PAGE, orderBy: 'taxon' }],
      [explore, taxa, { limit: 50_000, offset: 0 }],
      [recent, taxa, PAGE],
    ] as const) {
      const compiled = compileReport(report, given, visibilityFor(report), options);
      expect(compiled.sql).not.toContain('IN (SELECT');
      expect(compiled.sql.replace(/\s+/g, ' ')).toMatch(/ LIMIT \$\d+ OFFSET \$\d+$/);
    }
    expect(explore.keyedPages).toBe(true);
    expect(recent.keyedPages).toBe(false);
  });

  it('when a report replaces a standard date param, then its taxa do not make pages read keys first: their plain comparison is not answered by the index', () => {
    const definition = parseReport(
      'library/test/report',
      reportXml({
        reportAttributes: 'standard_params="occurrences" keyed_pages="true"',
        params: '<param name="date_from" display="Entered from" datatype="moment"><where>o.created_on &gt;= reports.moment_start(#date_from#)</where></param>',
      }),
    );
    const compiled = compileReport(definition, { taxa_taxon_list_id: '3', date_from: '2024-01-01' }, NO_VISIBILITY, PAGE);
    expect(compiled.sql).not.toContain('IN (SELECT');
  });

  it('when a count limit is given, then the count stops one row past it; without one, it counts every row', () => {
    const limited = compileReport(filtered, { survey_id: '4' }, { sql: 'o.website_id = $1', values: ['3'] }, { ...PAGE, countLimit: 10_000 });
    expect(limited.countSql).toMatch(/\(o\.record_status = \$3::text\) LIMIT 10001\) AS counted$/);
    expect(compileReport(filtered, { survey_id: '4' }, { sql: 'o.website_id = $1', values: ['3'] }, PAGE).countSql).not.toContain('LIMIT');
  });

  it('when a grouped report is compiled, then GROUP BY follows the filters and the count counts groups', () => {
    const report = shipped.reports.get('library/taxa/species_list') as ReportDefinition;

    const compiled = compileReport(report, { survey_id: '2' }, visibilityFor(report), PAGE);

    expect(compiled.sql).toMatch(/AND \(o\.survey_id = ANY\(\$3::bigint\[\]\)\)\s+GROUP BY o\.taxa_taxon_list_id/);
    expect(compiled.countSql).toMatch(/GROUP BY o\.taxa_taxon_list_id, o\.taxon, o\.default_common_name, o\.taxon_group\) AS counted$/);
  });

  it('when every shipped report is compiled with plausible values, then its SQL is well formed', () => {
    for (const report of shippedReports) {
      const given = plausibleValues(report, () => true);
      const compiled = compileReport(report, given, visibilityFor(report), { ...PAGE, orderBy: report.columns[0].name });

      for (const [sql, values] of [[compiled.sql, compiled.values], [compiled.countSql, compiled.countValues]] as const) {
        expect(hasBalancedParentheses(sql), `${report.path}: ${sql}`).toBe(true);
        expect(sql, report.path).not.toMatch(/#\w+#/);
        expect(placeholderNumbers(sql), report.path).toEqual(values.map((_, index) => index + 1));
      }
      expect(compiled.sql.replace(/\s+/g, ' '), report.path).toMatch(
        // Joined tables (an association's two occurrences) come after the table the sharing filter reads.
        /^SELECT .+ FROM reports\.\w+ [oscl] (?:JOIN .+ )?WHERE \(.+\) .*ORDER BY .+ LIMIT \$\d+ OFFSET \$\d+$/,
      );
      // In the report's own order: pages of reports with keyed pages read their keys first when taxa are given.
      const ownOrder = compileReport(report, given, visibilityFor(report), PAGE);
      expect(hasBalancedParentheses(ownOrder.sql), `${report.path}: ${ownOrder.sql}`).toBe(true);
      expect(placeholderNumbers(ownOrder.sql), report.path).toEqual(ownOrder.values.map((_, index) => index + 1));
      expect(ownOrder.sql.includes(' IN (SELECT '), report.path).toBe(report.keyedPages && 'taxa_taxon_list_id' in given);
    }
  });
});
