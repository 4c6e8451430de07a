import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { toBindValue } from './param-values.ts';
import { standardParams } from './standard-params.ts';
import type { ParamType, ReportColumn, ReportDefinition, ReportParam, ReportTable } from './types.ts';

export class ReportDefinitionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ReportDefinitionError';
  }
}

export const PARAM_TYPES: readonly ParamType[] = ['text', 'integer', 'float', 'date', 'moment', 'boolean', 'integer[]', 'text[]'];

/** The alias each table must have in a report's FROM: the service builds the sharing filter on it. */
export const TABLE_ALIASES: Readonly<Record<ReportTable, string>> = {
  occurrences: 'o',
  samples: 's',
  occurrence_comments: 'c',
  locations: 'l',
};

/** Placeholders the compiler fills itself; every other `#name#` must be a parameter. */
const RESERVED_PLACEHOLDERS: readonly string[] = ['columns', 'sharing_filter', 'filters'];

const PLACEHOLDER = /#([A-Za-z_][A-Za-z0-9_]*)#/g;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Compiled SQL numbers its own bind placeholders; a literal $n in a definition would collide.
const BIND_PLACEHOLDER = /\$\d/;

type XmlNode = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => name === 'order_by' || name === 'param' || name === 'column',
});

function placeholdersIn(sql: string): string[] {
  return [...sql.matchAll(PLACEHOLDER)].map((match) => match[1]);
}

export function parseReport(path: string, xml: string): ReportDefinition {
  const fail = (problem: string): never => {
    throw new ReportDefinitionError(`Report ${path}: ${problem}`);
  };
  const report = readReportElement(xml, fail);
  const table = readTable(report, fail);
  const query = readQuery(report, fail);
  const columns = asArray(childOf(childOf(report, 'columns'), 'column')).map((node) => readColumn(node, fail));
  const ownParams = asArray(childOf(childOf(report, 'params'), 'param')).map((node) => readParam(node, fail));
  const definition: ReportDefinition = {
    path,
    title: requiredAttribute(report, 'title', fail),
    description: attribute(report, 'description') ?? '',
    featured: readFlag(report, 'featured', fail),
    restricted: readFlag(report, 'restricted', fail),
    table,
    query,
    orderBy: asArray(childOf(childOf(report, 'order_bys'), 'order_by')).map((node) => textOf(node, 'order_by', fail)),
    keyedPages: readFlag(report, 'keyed_pages', fail),
    params: withStandardParams(ownParams, readStandardParams(report, table, fail)),
    columns,
  };
  checkDefinition(definition, fail);
  return definition;
}

function readReportElement(xml: string, fail: (problem: string) => never): XmlNode {
  const validation = XMLValidator.validate(xml);
  if (validation !== true) {
    fail(`invalid XML at line ${validation.err.line}: ${validation.err.msg}`);
  }
  const document = parser.parse(xml) as XmlNode;
  const report = document.report;
  if (!isNode(report)) {
    return fail('the root element must be <report>');
  }
  return report;
}

function readTable(report: XmlNode, fail: (problem: string) => never): ReportTable {
  const table = attribute(report, 'table');
  if (!isReportTable(table)) {
    return fail(`unknown table "${table ?? ''}" (expected one of ${Object.keys(TABLE_ALIASES).join(', ')})`);
  }
  return table;
}

function isReportTable(name: string | undefined): name is ReportTable {
  return name !== undefined && Object.hasOwn(TABLE_ALIASES, name);
}

function readQuery(report: XmlNode, fail: (problem: string) => never): string {
  const node = childOf(report, 'query');
  if (node === undefined) {
    return fail('missing <query>');
  }
  // The compiler appends ORDER BY and LIMIT, which must not come after a semicolon.
  return textOf(node, 'query', fail).replace(/;\s*$/, '');
}

// The warehouse puts standard_params on <query>; ours is on <report>. Accept both.
function readStandardParams(report: XmlNode, table: ReportTable, fail: (problem: string) => never): ReportParam[] {
  const query = childOf(report, 'query');
  const set = attribute(report, 'standard_params') ?? (isNode(query) ? attribute(query, 'standard_params') : undefined);
  if (set === undefined || set === '') {
    return [];
  }
  if (set !== 'occurrences') {
    fail(`unknown standard_params "${set}"`);
  }
  if (table !== 'occurrences') {
    fail('standard_params="occurrences" needs table="occurrences"');
  }
  return standardParams.occurrences;
}

/** The report's own params first; standard ones it does not override after them (without aliases its own names take). */
function withStandardParams(own: ReportParam[], standard: ReportParam[]): ReportParam[] {
  const ownNames = new Set(own.map((param) => param.name));
  const added = standard
    .filter((param) => !ownNames.has(param.name))
    .map((param) => ({ ...withoutConditionsOn(param, ownNames), ...(param.aliases ? { aliases: param.aliases.filter((alias) => !ownNames.has(alias)) } : {}) }));
  return [...own, ...added];
}

/**
 * A standard parameter whose conditions name a parameter the report replaced (the taxa's window
 * and the dates' overlap name the standard dates, which a report's own date_from may not be)
 * takes its conditions on itself alone instead (those naming no other), and supersedes nothing.
 */
function withoutConditionsOn(param: ReportParam, replaced: Set<string>): ReportParam {
  const conditions = [param.where ?? []].flat();
  const namesNoOther = (condition: string) => placeholdersIn(condition).every((name) => name === param.name || !replaced.has(name));
  if (conditions.every(namesNoOther)) return param;
  // Nor is it answered by the index that lets a page read its keys first.
  const { supersedes: _superseded, alone, keysFirst: _keysFirst, ...rest } = param;
  return { ...rest, where: alone ?? conditions.filter(namesNoOther) };
}

function readColumn(column: unknown, fail: (problem: string) => never): ReportColumn {
  if (!isNode(column)) {
    return fail('a <column> needs both name and sql');
  }
  const name = attribute(column, 'name');
  const sql = attribute(column, 'sql');
  if (!name || !sql) {
    return fail(`a <column> needs both name and sql (got name "${name ?? ''}")`);
  }
  return {
    name,
    display: attribute(column, 'display') || name,
    sql,
    datatype: attribute(column, 'datatype') || 'text',
    visible: attribute(column, 'visible') !== 'false',
  };
}

function readParam(element: unknown, fail: (problem: string) => never): ReportParam {
  if (!isNode(element)) {
    return fail('a <param> needs a name');
  }
  const name = requiredAttribute(element, 'name', fail);
  const datatype = attribute(element, 'datatype') || 'text';
  if (!isParamType(datatype)) {
    return fail(`param ${name} has unknown datatype "${datatype}"`);
  }
  const param: ReportParam = {
    name,
    display: attribute(element, 'display') || name,
    description: attribute(element, 'description') ?? '',
    datatype,
  };
  const defaultValue = attribute(element, 'default');
  if (defaultValue !== undefined) {
    param.default = defaultValue;
  }
  const where = childOf(element, 'where');
  if (where !== undefined) {
    param.where = textOf(where, `where of param ${name}`, fail);
    if (param.where === '') {
      fail(`param ${name} has an empty <where>`);
    }
  }
  const lookupValues = attribute(element, 'lookup_values');
  if (lookupValues) {
    param.lookupValues = parseLookupValues(lookupValues);
  }
  return param;
}

function isParamType(name: string): name is ParamType {
  return (PARAM_TYPES as readonly string[]).includes(name);
}

/** `lookup_values="C:Not reviewed,V:Accepted"` → { C: 'Not reviewed', V: 'Accepted' }. */
function parseLookupValues(text: string): Record<string, string> {
  const lookup: Record<string, string> = {};
  for (const entry of text.split(',')) {
    const colon = entry.indexOf(':');
    const key = (colon === -1 ? entry : entry.slice(0, colon)).trim();
    lookup[key] = colon === -1 ? key : entry.slice(colon + 1).trim();
  }
  return lookup;
}

function checkDefinition(definition: ReportDefinition, fail: (problem: string) => never): void {
  checkNames(definition, fail);
  checkQuery(definition, fail);
  checkPlaceholders(definition, fail);
}

function checkNames(definition: ReportDefinition, fail: (problem: string) => never): void {
  const columnNames = new Set<string>();
  for (const column of definition.columns) {
    if (!IDENTIFIER.test(column.name)) {
      fail(`column name "${column.name}" must be letters, digits and underscores`);
    }
    if (columnNames.has(column.name)) {
      fail(`column ${column.name} is defined twice`);
    }
    if (placeholdersIn(column.sql).length > 0 || BIND_PLACEHOLDER.test(column.sql)) {
      fail(`column ${column.name} sql must not contain placeholders`);
    }
    columnNames.add(column.name);
  }
  if (columnNames.size === 0) {
    fail('no <column> defined');
  }
  const paramNames = new Set<string>();
  for (const param of definition.params) {
    if (!IDENTIFIER.test(param.name) || RESERVED_PLACEHOLDERS.includes(param.name)) {
      fail(`invalid param name "${param.name}"`);
    }
    if (paramNames.has(param.name)) {
      fail(`param ${param.name} is defined twice`);
    }
    if (param.default && toBindValue(param, param.default) === undefined) {
      fail(`the default of param ${param.name} is not a valid ${param.datatype}`);
    }
    paramNames.add(param.name);
  }
}

function checkQuery(definition: ReportDefinition, fail: (problem: string) => never): void {
  const { query, table } = definition;
  const alias = TABLE_ALIASES[table];
  if (!new RegExp(`\\breports\\.${table}\\s+(?:AS\\s+)?${alias}\\b`, 'i').test(query)) {
    fail(`the query must read reports.${table} with alias ${alias}`);
  }
  const placeholders = placeholdersIn(query);
  if (!placeholders.includes('sharing_filter')) {
    fail('the query must contain #sharing_filter#');
  }
  if (!placeholders.includes('columns')) {
    fail('the query must contain #columns#');
  }
  if (definition.params.some((param) => param.where !== undefined) && !placeholders.includes('filters')) {
    fail('params have a <where> but the query has no #filters#');
  }
  if (definition.keyedPages) {
    if (/\b(GROUP\s+BY|JOIN|SELECT\s+DISTINCT|UNION)\b/i.test(query)) fail('keyed_pages needs a query of its table alone, without GROUP BY, JOIN, DISTINCT or UNION');
    if (definition.orderBy.length === 0) fail('keyed_pages needs an <order_by>');
    if (!definition.orderBy.every((term) => new RegExp(`^${alias}\\.[a-z_][a-z0-9_]*(\\s+(ASC|DESC))?$`, 'i').test(term.trim()))) {
      fail(`keyed_pages needs an order of columns of ${alias} alone`);
    }
  }
}

function checkPlaceholders(definition: ReportDefinition, fail: (problem: string) => never): void {
  const paramNames = new Set(definition.params.map((param) => param.name));
  const check = (sql: string, where: string, allowed: (name: string) => boolean): void => {
    if (BIND_PLACEHOLDER.test(sql)) {
      fail(`${where} must not contain $n bind placeholders`);
    }
    for (const name of placeholdersIn(sql)) {
      if (!allowed(name)) {
        fail(`${where} uses #${name}#, which is not a parameter`);
      }
    }
  };
  check(definition.query, 'the query', (name) => paramNames.has(name) || RESERVED_PLACEHOLDERS.includes(name));
  for (const param of definition.params) {
    for (const condition of [param.where ?? []].flat()) {
      check(condition, `the where of param ${param.name}`, (name) => paramNames.has(name));
    }
  }
}

function readFlag(node: XmlNode, name: string, fail: (problem: string) => never): boolean {
  const value = attribute(node, name);
  if (value === undefined || value === '' || value === 'false') {
    return false;
  }
  if (value === 'true') {
    return true;
  }
  return fail(`${name} must be "true" or "false", not "${value}"`);
}

function attribute(node: XmlNode, name: string): string | undefined {
  const value = node[`@${name}`];
  return typeof value === 'string' ? value : undefined;
}

function requiredAttribute(node: XmlNode, name: string, fail: (problem: string) => never): string {
  const value = attribute(node, name);
  if (!value) {
    return fail(`missing ${name} attribute`);
  }
  return value;
}

function childOf(node: unknown, name: string): unknown {
  return isNode(node) ? node[name] : undefined;
}

function asArray(value: unknown): unknown[] {
  if (value === undefined || value === '') {
    return [];
  }
  return Array.isArray(value) ? value : [value];
}

/** Text of an element that may also carry attributes (then the parser nests it under #text). */
function textOf(node: unknown, what: string, fail: (problem: string) => never): string {
  if (typeof node === 'string') {
    return node;
  }
  if (isNode(node) && typeof node['#text'] === 'string') {
    return node['#text'];
  }
  return fail(`<${what}> must contain only text`);
}

function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
