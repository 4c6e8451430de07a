// The NODE_OPTIONS a service's chart gives its pods by default, read from charts/<service>/values.yaml
// by the rule of charts/rex-lib ("rex-lib.heapMiB", "rex-lib.commonEnv"): a heap limit of heapMiB, or of
// 75 % of resources.limits.memory, then extraNodeOptions. The soak and the benchmark run each process
// so, as a cluster does, instead of letting V8 size its heap and young generation to this machine.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

export type ChartedService = 'gateway' | 'records' | 'reports' | 'media' | 'search';

const CHARTS = fileURLToPath(new URL('../charts/', import.meta.url));

const UNITS: Record<string, number> = { Gi: 1024, Mi: 1, Ki: 1 / 1024, G: 1e9 / 2 ** 20, M: 1e6 / 2 ** 20, k: 1e3 / 2 ** 20, K: 1e3 / 2 ** 20, '': 1 / 2 ** 20 };

/** A Kubernetes memory quantity (512Mi, 1Gi, 500M, 536870912) in whole MiB. */
export function mebibytes(quantity: string | number): number {
  const match = /^(\d+)(Gi|Mi|Ki|G|M|k|K)?$/.exec(String(quantity));
  if (!match) throw new Error(`cannot read the memory quantity ${quantity}`);
  return Math.floor(Number(match[1]) * UNITS[match[2] ?? '']);
}

type RoleValues = { resources?: { limits?: { memory?: string } }; heapMiB?: number; extraNodeOptions?: string };

/**
 * NODE_OPTIONS of a service's pods with its chart's default values. For reports, those of the query
 * pods (their keys over the top-level ones), which serve the report pages and downloads.
 */
export function chartNodeOptions(service: ChartedService, chartsDir = CHARTS): string {
  const values = parse(readFileSync(join(chartsDir, service, 'values.yaml'), 'utf8')) as RoleValues & { query?: RoleValues };
  const role: RoleValues = service === 'reports' ? { ...values, ...values.query } : values;
  const limit = role.resources?.limits?.memory;
  if (!limit) throw new Error(`charts/${service}: resources.limits.memory is not set`);
  const heap = (role.heapMiB ?? 0) > 0 ? role.heapMiB! : Math.floor((mebibytes(limit) * 3) / 4);
  return [`--max-old-space-size=${heap}`, role.extraNodeOptions ?? ''].filter(Boolean).join(' ');
}
