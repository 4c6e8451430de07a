import { canonicalMoment, isRealDate } from '@rex/dates';
import type { ParamType, ReportParam } from './types.ts';

/** The SQL cast each parameter's bind placeholder gets, so Postgres never has to guess its type. */
export const PARAM_CASTS: Readonly<Record<ParamType, string>> = {
  text: '::text',
  integer: '::bigint',
  float: '::float8',
  date: '::date',
  moment: '::text',
  boolean: '::boolean',
  'integer[]': '::bigint[]',
  'text[]': '::text[]',
};

const INTEGER = /^-?\d+$/;
const FLOAT = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
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
  if (param.datatype === 'moment') return canonicalMoment(value);
  return param.datatype === 'boolean' ? String(TRUE_VALUES.includes(value.toLowerCase())) : value;
}

function isValidScalar(datatype: ParamType, value: string): boolean {
  switch (datatype) {
    case 'integer':
      return INTEGER.test(value) && BigInt(value) >= BIGINT_MIN && BigInt(value) <= BIGINT_MAX;
    case 'float':
      return FLOAT.test(value) && Number.isFinite(Number(value)) && !underflows(value);
    case 'date':
      return isRealDate(value);
    case 'moment':
      return canonicalMoment(value) !== undefined;
    case 'boolean':
      return TRUE_VALUES.includes(value.toLowerCase()) || FALSE_VALUES.includes(value.toLowerCase());
    default:
      // Postgres text cannot hold NUL characters.
      return !value.includes('\0');
  }
}

/** A number too small for a float8 (1e-400): PostgreSQL refuses what would round to zero, as it does what overflows. */
function underflows(value: string): boolean {
  return Number(value) === 0 && /[1-9]/.test(value.split(/e/i)[0]);
}

function isLookupKey(param: ReportParam, value: string): boolean {
  return param.lookupValues === undefined || Object.hasOwn(param.lookupValues, value);
}
