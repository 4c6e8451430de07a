// The NODE_OPTIONS a service's chart gives its pods by default, read from charts/<service>/values.yaml
// by the rule of charts/rex-lib ("rex-lib.heapMiB", "rex-lib.commonEnv"): a heap limit of heapMiB, or of
// 75 % of resources.limits.memory, then extraNodeOptions. The soak and the benchmark run each process
// so, as a cluster does, instead of letting V8 size its heap and young generation to this machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import type { ServiceName } from './suite.ts';

const CHARTS = fileURLToPath(new URL('../charts/', import.meta.url));

const UNITS: Record<string, number> = { Gi: 1024, Mi: 1, Ki: 1 / 1024, G: 1e9 / 2 ** 20, M: 1e6 / 2 ** 20, k: 1e3 / 2 ** 20, K: 1e3 / 2 ** 20, '': 1 / 2 ** 20 };

/** A Kubernetes memory quantity (512Mi, 1Gi, 500M, 536870912) in whole MiB. */
export function mebibytes(quantity: string | number): number {
  const match = /^(\d+)(Gi|Mi|Ki|G|M|k|K)?$/.exec(String(quantity));
  if (!match) throw new Error(`cannot read the memory quantity ${quantity}`);
  return Math.floor(Number(match[1]) * UNITS[match[2] ?? '']);
}

type RoleValues = { resources?: { limits?: { memory?: string } }; heapMiB?: number; extraNodeOptions?: string };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
/** What Helm's merge treats as unset: a role's empty or zero value falls back to the top-level one. */
const isUnset = (value: unknown) => value === undefined || value === null || value === '' || value === 0 || value === false;

/** Helm's `merge role top`: the role's keys win, deeply, except where the role leaves them unset. */
function mergeRole(role: Record<string, unknown>, top: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...role };
  for (const [key, value] of Object.entries(top)) {
    if (isPlainObject(merged[key]) && isPlainObject(value)) merged[key] = mergeRole(merged[key] as Record<string, unknown>, value);
    else if (isUnset(merged[key])) merged[key] = value;
  }
  return merged;
}

/**
 * NODE_OPTIONS of a service's pods with its chart's default values. For reports, those of the query
 * pods (their keys over the top-level ones, as "reports.roleValues" merges them), which serve the
 * report pages and downloads.
 */
export function chartNodeOptions(service: ServiceName, chartsDir = CHARTS): string {
  const values = parse(readFileSync(join(chartsDir, service, 'values.yaml'), 'utf8')) as Record<string, unknown>;
  const { query, projector: _projector, ...top } = values;
  const role = (service === 'reports' && isPlainObject(query) ? mergeRole(query, top) : values) as RoleValues;
  const limit = role.resources?.limits?.memory;
  if (!limit) throw new Error(`charts/${service}: resources.limits.memory is not set`);
  const limitMiB = mebibytes(limit);
  const heap = (role.heapMiB ?? 0) > 0 ? role.heapMiB! : Math.floor((limitMiB * 3) / 4);
  // The checks with which rex-lib's "rex-lib.heapMiB" refuses to render.
  if (heap >= limitMiB) throw new Error(`charts/${service}: heapMiB (${heap}) must be below the memory limit (${limitMiB} MiB)`);
  if (heap < 64) throw new Error(`charts/${service}: the heap (${heap} MiB) is too small`);
  return [`--max-old-space-size=${heap}`, role.extraNodeOptions ?? ''].filter(Boolean).join(' ');
}

/** The suite's `serviceEnv` that gives every service its chart's NODE_OPTIONS. */
export function chartServiceEnv(): Record<ServiceName, { NODE_OPTIONS: string }> {
  const services: ServiceName[] = ['gateway', 'records', 'reports', 'media', 'search'];
  return Object.fromEntries(services.map((name) => [name, { NODE_OPTIONS: chartNodeOptions(name) }])) as Record<ServiceName, { NODE_OPTIONS: string }>;
}
