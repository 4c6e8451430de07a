import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chartNodeOptions, mebibytes } from '../chart-node-options.ts';

describe('mebibytes', () => {
  it('reads the quantities a memory limit is written in', () => {
    expect(mebibytes('512Mi')).toBe(512);
    expect(mebibytes('1Gi')).toBe(1024);
    expect(mebibytes('500M')).toBe(476);
    expect(mebibytes(536870912)).toBe(512);
  });
  it('refuses what it cannot read', () => {
    expect(() => mebibytes('half a gig')).toThrow(/cannot read/);
  });
});

describe('chartNodeOptions', () => {
  // The same NODE_OPTIONS the charts' own tests (charts/*/tests) expect of the default values.
  it('gives each service the options its chart renders by default', () => {
    expect(chartNodeOptions('gateway')).toBe('--max-old-space-size=384 --max-semi-space-size=16');
    expect(chartNodeOptions('records')).toBe('--max-old-space-size=384 --max-semi-space-size=16');
    expect(chartNodeOptions('media')).toBe('--max-old-space-size=384 --max-semi-space-size=16');
    expect(chartNodeOptions('reports')).toBe('--max-old-space-size=576 --max-semi-space-size=8');
    expect(chartNodeOptions('search')).toBe('--max-old-space-size=192');
  });

  const charts = mkdtempSync(join(tmpdir(), 'rex-charts-'));
  afterAll(() => rmSync(charts, { recursive: true, force: true }));
  const chart = (name: 'gateway' | 'reports', values: string) => {
    mkdirSync(join(charts, name), { recursive: true });
    writeFileSync(join(charts, name, 'values.yaml'), values);
  };

  it('takes heapMiB over the limit, and a role of reports over its top-level keys', () => {
    chart('gateway', 'resources: { limits: { memory: 1Gi } }\nheapMiB: 300\nextraNodeOptions: ""\n');
    expect(chartNodeOptions('gateway', charts)).toBe('--max-old-space-size=300');
    chart('reports', 'query: { resources: { limits: { memory: 2Gi } }, heapMiB: 0 }\nprojector: { resources: { limits: { memory: 256Mi } } }\nheapMiB: 1000\nextraNodeOptions: --enable-source-maps\n');
    // The query role's unset heapMiB (0) falls back to the top-level one, as Helm's merge does.
    expect(chartNodeOptions('reports', charts)).toBe('--max-old-space-size=1000 --enable-source-maps');
    chart('reports', 'query: { resources: { limits: { memory: 2Gi } } }\nprojector: { resources: { limits: { memory: 256Mi } } }\n');
    expect(chartNodeOptions('reports', charts)).toBe('--max-old-space-size=1536');
  });

  it('refuses a heap the chart would refuse to render', () => {
    chart('gateway', 'resources: { limits: { memory: 512Mi } }\nheapMiB: 512\n');
    expect(() => chartNodeOptions('gateway', charts)).toThrow(/below the memory limit/);
    chart('gateway', 'resources: { limits: { memory: 64Mi } }\n');
    expect(() => chartNodeOptions('gateway', charts)).toThrow(/too small/);
  });

  it('says so when a chart has no memory limit to size the heap from', () => {
    chart('gateway', 'heapMiB: 0\n');
    expect(() => chartNodeOptions('gateway', charts)).toThrow(/limits.memory/);
  });
});
