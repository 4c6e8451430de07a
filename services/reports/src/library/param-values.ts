import type { ParamType, ReportParam } from './definition.ts';

/** The SQL cast each parameter's bind placeholder gets, so Postgres never has to guess its type. */
export const PARAM_CASTS: Readonly<Record<ParamType, string>> = {
  text: '::text',
  integer: '::bigint',
  float: '::float8',
  date: '::date',
  boolean: '::boolean',
  'integer[]': '::bigint[]',
  'text[]': '::text[]',
};

const INTEGER = /^-?\d+$/;
const FLOAT = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const BIGINT_MIN = -(2n ** 63n);
const BIGINT_MAX = 2n ** 63n - 1n;
const TRUE_VALUES = ['true', 't', '1'];
const FALSE_VALUES = ['false', 'f', '0'];

/**
 * The value to bind for a raw parameter string, or undefined when the string
 * is not a valid value for the parameter. Lists become string arrays (node-pg
 * sends them as Postgres arrays); scalars stay strings for Postgres to cast.
 */
export function toBindValue(param: ReportParam, raw: string): string | string[] | undefined {
  if (param.datatype === 'integer[]' || param.datatype === 'text[]') {
    const items = raw.split(',').map((item) => item.trim());
    const itemType = param.datatype === 'integer[]' ? 'integer' : 'text';
    return items.every((item) => isValidScalar(itemType, item) && isLookupKey(param, item)) ? items : undefined;
  }
  const value = param.datatype === 'text' ? raw : raw.trim();
  if (!isValidScalar(param.datatype, value) || !isLookupKey(param, value)) {
    return undefined;
  }
  return param.datatype === 'boolean' ? String(TRUE_VALUES.includes(value.toLowerCase())) : value;
}

function isValidScalar(datatype: ParamType, value: string): boolean {
  switch (datatype) {
    case 'integer':
      return INTEGER.test(value) && BigInt(value) >= BIGINT_MIN && BigInt(value) <= BIGINT_MAX;
    case 'float':
      return FLOAT.test(value) && Number.isFinite(Number(value));
    case 'date':
      return isRealDate(value);
    case 'boolean':
      return TRUE_VALUES.includes(value.toLowerCase()) || FALSE_VALUES.includes(value.toLowerCase());
    default:
      // Postgres text cannot hold NUL characters.
      return !value.includes('\0');
  }
}

function isRealDate(value: string): boolean {
  const match = DATE.exec(value);
  if (match === null) {
    return false;
  }
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not turn years 0-99 into 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  return year > 0 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isLookupKey(param: ReportParam, value: string): boolean {
  return param.lookupValues === undefined || Object.hasOwn(param.lookupValues, value);
}
