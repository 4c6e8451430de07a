import type { ReportColumn, ReportDefinition, ReportParam, Visibility } from './types.ts';
import { TABLE_ALIASES } from './definition.ts';
import { PARAM_CASTS, toBindValue } from './param-values.ts';

export class ParamError extends Error {
  readonly status: 400;
  readonly parameters: string[];

  constructor(message: string, parameters: string[]) {
    super(message);
    this.name = 'ParamError';
    this.status = 400;
    this.parameters = parameters;
  }
}


export type RunOptions = {
  limit: number;
  offset: number;
  orderBy?: string;
  sortDir?: 'ASC' | 'DESC';
  columns?: string[];
  /** The count stops after this many rows and then says limit + 1 (undefined or 0: counts all). */
  countLimit?: number;
};

export type CompiledReport = {
  sql: string;
  values: unknown[];
  countSql: string;
  countValues: unknown[];
  columns: ReportColumn[];
  /** Names given that are neither a parameter nor an alias of one: ignored, and told to the caller. */
  unknownParameters: string[];
};

type BindValue = string | string[];

/** Bind values in placeholder order; a parameter used twice reuses its placeholder. */
type Binder = { values: unknown[]; numbers: Map<string, number> };

const PLACEHOLDER = /#([A-Za-z_][A-Za-z0-9_]*)#/g;

export function compileReport(
  definition: ReportDefinition,
  given: Record<string, string>,
  visibility: Visibility,
  options: RunOptions,
): CompiledReport {
  const paramValues = resolveParamValues(definition.params, given);
  const columns = selectColumns(distinctColumns([...definition.columns, ...attributeColumns(definition.params, paramValues)]), options.columns);
  const orderBy = orderByClause(definition, columns, options);
  checkPaging(options);
  const binder: Binder = { values: [...visibility.values], numbers: new Map() };
  const query = fillQuery(definition, columns, paramValues, visibility, binder);
  const countValues = [...binder.values];
  const values = [...binder.values, options.limit, options.offset];
  const paging = `${orderBy} LIMIT $${values.length - 1} OFFSET $${values.length}`;
  return {
    sql: keysFirst(definition, paramValues, options) ? keyedPageSql(definition, columns, paramValues, visibility, binder, paging, orderBy) : `${query}${paging}`,
    values,
    countSql: `SELECT count(*) AS count FROM (${query}${options.countLimit ? ` LIMIT ${Math.trunc(options.countLimit) + 1}` : ''}) AS counted`,
    countValues,
    columns,
    unknownParameters: unknownParameters(definition.params, given),
  };
}

/** The largest page read keys first: a download reads its rows in the report's order as they come. */
const KEYED_PAGE_LIMIT = 1_000;

/**
 * Whether a page reads its rows' ids first: the report allows it, the page is in the report's own
 * order, and a parameter given is answered by an index that holds every column the page's
 * conditions read (keysFirst), from which the ids then come without reading the table. Over a
 * million records, a month of one species is thousands of rows on as many pages of the table;
 * read keys first, the page reads the hundred it shows. A page of other filters keeps one
 * statement: reading its ids first would plan and read the table twice.
 */
function keysFirst(definition: ReportDefinition, paramValues: Map<string, BindValue>, options: RunOptions): boolean {
  if (!definition.keyedPages || options.orderBy !== undefined || options.limit > KEYED_PAGE_LIMIT) return false;
  return definition.params.some((param) => param.keysFirst && paramValues.has(param.name));
}

/** The page as the rows of the ids a subquery of the report's conditions, order and paging finds. */
function keyedPageSql(
  definition: ReportDefinition,
  columns: ReportColumn[],
  paramValues: Map<string, BindValue>,
  visibility: Visibility,
  binder: Binder,
  paging: string,
  orderBy: string,
): string {
  const key = `${TABLE_ALIASES[definition.table]}.id`;
  const ids = fillQuery(definition, [{ name: 'page_key', display: '', sql: key, datatype: 'integer', visible: false }], paramValues, visibility, binder);
  return `${fillQuery(definition, columns, paramValues, visibility, binder, `${key} IN (${ids}${paging})`)}${orderBy}`;
}

/** The names in `given` that no parameter of the report takes. */
export function unknownParameters(params: ReportParam[], given: Record<string, string>): string[] {
  const known = new Set(params.flatMap((param) => [param.name, ...(param.aliases ?? [])]));
  return Object.keys(given).filter((name) => !known.has(name));
}

const ATTRIBUTE_VALUES = { sample: 'o.sample_attrs', occurrence: 'o.attrs' } as const;

/**
 * The columns smpattrs/occattrs ask for: one per attribute id, its values as
 * text. The ids are checked whole numbers, so they go into the SQL as literals.
 */
function attributeColumns(params: ReportParam[], values: Map<string, BindValue>): ReportColumn[] {
  return params.flatMap((param) => {
    const ids = param.attributeColumns ? values.get(param.name) : undefined;
    if (!param.attributeColumns || !Array.isArray(ids)) return [];
    return [...new Set(ids.map((id) => BigInt(id).toString()))].map((id) => ({
      name: `attr_${param.attributeColumns}_${id}`,
      display: `${param.attributeColumns === 'sample' ? 'Sample' : 'Occurrence'} attribute ${id}`,
      sql: `${ATTRIBUTE_VALUES[param.attributeColumns!]} ->> '${id}'`,
      datatype: 'text',
      visible: true,
    }));
  });
}

/** Each name once: an attribute column named as a column before it (the report's own, or another attribute's) is that column. */
function distinctColumns(columns: ReportColumn[]): ReportColumn[] {
  const names = new Set<string>();
  return columns.filter((column) => !names.has(column.name) && Boolean(names.add(column.name)));
}

/** All columns, or the requested ones in the requested order. */
function selectColumns(columns: ReportColumn[], requested: string[] | undefined): ReportColumn[] {
  if (requested === undefined || requested.length === 0) {
    return columns;
  }
  const names = [...new Set(requested)];
  const unknown = names.filter((name) => !columns.some((column) => column.name === name));
  if (unknown.length > 0) {
    throw new ParamError(`Unknown columns: ${unknown.join(', ')}`, ['columns']);
  }
  return names.map((name) => columns.find((column) => column.name === name) as ReportColumn);
}

/** A requested sort column first, the definition's order as the tie-breaker so paging stays stable. */
function orderByClause(definition: ReportDefinition, columns: ReportColumn[], options: RunOptions): string {
  const terms = [...definition.orderBy];
  if (options.orderBy !== undefined) {
    if (!columns.some((column) => column.name === options.orderBy)) {
      throw new ParamError('Invalid orderby parameter', ['orderby']);
    }
    const direction = options.sortDir ?? 'ASC';
    if (direction !== 'ASC' && direction !== 'DESC') {
      throw new ParamError('Invalid sortdir parameter', ['sortdir']);
    }
    terms.unshift(`"${options.orderBy}" ${direction}`);
  }
  return terms.length === 0 ? '' : ` ORDER BY ${terms.join(', ')}`;
}

function checkPaging(options: RunOptions): void {
  for (const name of ['limit', 'offset'] as const) {
    if (!Number.isSafeInteger(options[name]) || options[name] < 0) {
      throw new ParamError(`Invalid integer format for ${name} parameter`, [name]);
    }
  }
}

/** The value of every parameter that has one (given, else a non-empty default); throws on missing or bad ones. */
function resolveParamValues(params: ReportParam[], given: Record<string, string>): Map<string, BindValue> {
  const missing = params
    .filter((param) => param.default === undefined && givenValue(given, param) === undefined)
    .map((param) => param.name);
  if (missing.length > 0) {
    throw new ParamError(`Missing parameters: ${missing.join(', ')}`, missing);
  }
  const values = new Map<string, BindValue>();
  for (const param of params) {
    const fromCaller = givenValue(given, param);
    const raw = fromCaller?.value ?? (param.default || undefined);
    if (raw === undefined) {
      continue;
    }
    const value = toBindValue(param, raw);
    if (value === undefined) {
      const name = fromCaller?.name ?? param.name;
      throw new ParamError(`Invalid value for parameter ${name}`, [name]);
    }
    values.set(param.name, value);
  }
  return values;
}

/**
 * The value given for a parameter, by its name or an alias, and the name it
 * came by. An empty string counts as not given, as in the warehouse
 * (`?survey_id=` means no survey filter). Two names giving different values
 * is a 400.
 */
function givenValue(given: Record<string, string>, param: ReportParam): { name: string; value: string } | undefined {
  const found = [param.name, ...(param.aliases ?? [])]
    .filter((name) => Object.hasOwn(given, name) && typeof given[name] === 'string' && given[name] !== '')
    .map((name) => ({ name, value: given[name] }));
  if (found.some((entry) => entry.value !== found[0].value)) {
    throw new ParamError(`Parameters ${found.map((entry) => entry.name).join(' and ')} give different values`, found.map((entry) => entry.name));
  }
  return found[0];
}

/** The report's query; with `keyed`, that condition stands for the sharing filter and the parameters' conditions. */
function fillQuery(
  definition: ReportDefinition,
  columns: ReportColumn[],
  paramValues: Map<string, BindValue>,
  visibility: Visibility,
  binder: Binder,
  keyed?: string,
): string {
  const paramsByName = new Map(definition.params.map((param) => [param.name, param]));
  const placeholderFor = (name: string): string => {
    const param = paramsByName.get(name) as ReportParam;
    return bindPlaceholder(binder, param, paramValues.get(name) ?? null);
  };
  return definition.query.replace(PLACEHOLDER, (_, name: string) => {
    switch (name) {
      case 'columns':
        return columns.map((column) => `${column.sql} AS "${column.name}"`).join(', ');
      case 'sharing_filter':
        if (keyed !== undefined) return keyed;
        return visibility.sql.trim() === '' ? 'TRUE' : `(${visibility.sql})`;
      case 'filters':
        return keyed !== undefined ? '' : filtersSql(definition.params, paramValues, placeholderFor);
      default:
        return placeholderFor(name);
    }
  });
}

/**
 * ` AND (<condition>)` for every condition of a parameter that has a value; a condition two of them
 * name comes once, and one that another given parameter supersedes not at all.
 */
function filtersSql(
  params: ReportParam[],
  paramValues: Map<string, BindValue>,
  placeholderFor: (name: string) => string,
): string {
  const given = params.filter((param) => paramValues.has(param.name));
  const superseded = new Set(given.flatMap((param) => param.supersedes ?? []));
  const conditions = given
    .flatMap((param) => [param.where ?? []].flat())
    .filter((condition) => !superseded.has(condition))
    .map((condition) => condition.replace(PLACEHOLDER, (_, name: string) => placeholderFor(name)));
  return [...new Set(conditions)].map((condition) => ` AND (${condition})`).join('');
}

function bindPlaceholder(binder: Binder, param: ReportParam, value: BindValue | null): string {
  let number = binder.numbers.get(param.name);
  if (number === undefined) {
    binder.values.push(value);
    number = binder.values.length;
    binder.numbers.set(param.name, number);
  }
  return `$${number}${PARAM_CASTS[param.datatype]}`;
}
