// Fuzzes every route of a running gateway: operations come from its OpenAPI
// document, and each request fills the path, query and body with values built
// to break parsers and lookups (prototype names, huge numbers, impossible
// dates, NUL characters, deep nesting, wrong types). Every answer must be
// below 500 (a 503 only from a search end-point whose index is down) and
// every refusal the API's JSON error. Used by `npm run fuzz` and the e2e tests.

type Operation = { method: string; path: string; parameters: string[] };

export type FuzzOptions = {
  /** `{gateway}/index.php/services/rest` */
  services: string;
  headers: Record<string, string>;
  cases: number;
  seed: number;
  concurrency?: number;
  /** Called every 1 000 cases. */
  onProgress?: (done: number) => void;
};

export type FuzzResult = { cases: number; byStatus: Record<number, number>; failures: string[]; seconds: number };

/** A small deterministic generator, so a failing case can be replayed from its seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick, chance: (p: number) => next() < p };
}

const STRINGS = [
  '1', '0', '-1', '2', '99999999999999999999', '9223372036854775808', '1e309', '1.5', 'NaN', 'constructor', '__proto__', 'toString', 'hasOwnProperty',
  'valueOf', '2024-99-99', '2024-02-30', '2026-05-01', '', ' ', 'a\u0000b', '%00', '%2e%2e', '../..', '<script>alert(1)</script>', "' OR 1=1 --", '=cmd|x',
  'SU1234', 'OSGB', '4326', '27700', 'true', 'false', 'null', '[]', '{}', '\u2603\u00e9', '\ud800', 'x'.repeat(5000), '1'.repeat(300), `1${' '.repeat(2000)}x`,
  'library/occurrences/explore_list.xml', 'library/../../etc/passwd', 'R', 'user', 'reporting', 'csv', 'json', 'DESC', 'id',
] as const;

const QUERY_NAMES = [
  'constructor', '__proto__', 'scope', 'format', 'limit', 'offset', 'verbose', 'date_start', 'date_end', 'edited_date_from', 'edited_date_to', 'location_name',
  'survey_id', 'orderby', 'sortdir', 'columns', 'wantCount', 'q', 'size', 'user', 'secret', 'proj_id', 'taxa_taxon_list_id', 'external_key', 'sample_id',
  'website_id', 'callback', 'page', 'page_size', 'known_count', 'debug',
] as const;

const FIELDS = [
  'survey_id', 'date', 'date_start', 'date_end', 'date_type', 'entered_sref', 'entered_sref_system', 'location_name', 'comment', 'external_key', 'sample_id',
  'taxa_taxon_list_id', 'location_id', 'parent_id', 'licence_id', 'group_id', 'sample_method_id', 'record_status', 'id', 'queued', 'path', 'caption',
  'name', 'centroid_sref', 'centroid_sref_system', 'boundary_geom', 'location_type_id', 'title', 'website_id', 'caption', 'data_type', 'smpAttr:1',
  'smpAttr:constructor', 'occAttr:1', 'occAttr:99999999999999999999', 'locAttr:1', 'constructor', '__proto__', 'deleted', 'created_by_id', 'zero_abundance',
  'sensitivity_precision', 'confidential',
] as const;

const BASES: Record<string, Record<string, unknown>> = {
  samples: { values: { survey_id: 1, date: '2026-05-01', entered_sref: 'SU1234', entered_sref_system: 'OSGB' }, occurrences: [{ values: { taxa_taxon_list_id: 1 } }] },
  occurrences: { values: { sample_id: 1, taxa_taxon_list_id: 1 } },
  locations: { values: { name: 'fuzz', centroid_sref: 'SU1234', centroid_sref_system: 'OSGB' } },
  surveys: { values: { title: 'fuzz' } },
  attributes: { values: { caption: 'fuzz', data_type: 'T' } },
  media: { values: { queued: 'x.jpg' } },
};

function randomValue(g: ReturnType<typeof generator>, depth = 0): unknown {
  const roll = g.next();
  if (roll < 0.55) return g.pick(STRINGS);
  if (roll < 0.7) return g.pick([0, -1, 1, 2, 1e21, 99999999999999999999, 1.5, -0.0, 2 ** 53 + 1]);
  if (roll < 0.75) return g.pick([true, false, null]);
  if (roll < 0.85 && depth < 3) return Array.from({ length: Math.floor(g.next() * 4) }, () => randomValue(g, depth + 1));
  if (depth < 3) return Object.fromEntries(Array.from({ length: Math.floor(g.next() * 3) }, () => [g.pick(FIELDS), randomValue(g, depth + 1)]));
  return g.pick(STRINGS);
}

function randomSubmission(g: ReturnType<typeof generator>, resource: string, depth = 0): unknown {
  const base = structuredClone(BASES[resource] ?? BASES.samples) as Record<string, unknown>;
  const values = base.values as Record<string, unknown>;
  for (let i = Math.floor(g.next() * 4); i > 0; i--) values[g.pick(FIELDS)] = randomValue(g);
  if (g.chance(0.15)) base.values = randomValue(g);
  if (g.chance(0.2) && depth < 12) base[g.pick(['samples', 'occurrences', 'media'])] = Array.from({ length: 1 + Math.floor(g.next() * 2) }, () => randomSubmission(g, resource, depth + 1));
  if (g.chance(0.05)) base.occurrences = randomValue(g);
  return base;
}

function randomBody(g: ReturnType<typeof generator>, operation: Operation): { body?: string; type?: string } {
  const resource = operation.path.includes('/attributes') ? 'attributes' : operation.path.includes('_media') ? 'media' : operation.path.split('/')[1];
  const roll = g.next();
  if (roll < 0.05) return {};
  if (roll < 0.1) return { body: g.pick(['{', '{"values":', 'null', '"x"', '[', '\u0000', '{"values":{}}']), type: g.pick(['application/json', 'text/plain', 'application/x-www-form-urlencoded']) };
  if (operation.path.endsWith('/list') || g.chance(0.05)) {
    return { body: JSON.stringify(Array.from({ length: Math.floor(g.next() * 4) }, () => randomSubmission(g, resource === 'samples' || resource === 'occurrences' ? resource : 'samples'))), type: 'application/json' };
  }
  return { body: JSON.stringify(randomSubmission(g, resource)), type: 'application/json' };
}

function randomPath(g: ReturnType<typeof generator>, operation: Operation): string {
  return operation.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (name === 'path') return g.pick(['_search', '_count', '_mapping', '_searchx/../_count', 'library/occurrences/explore_list.xml', 'library', 'library/occurrences/explore_list.xml/params', 'constructor', '%2e%2e/x', 'a%00b']);
    return encodeURIComponent(String(g.pick(['1', '2', '0', '-1', '99999999999999999999', 'constructor', '__proto__', 'x', '1.5', '%00', 'a\u0000b', '1e3'])));
  });
}

function randomQuery(g: ReturnType<typeof generator>, operation: Operation): string {
  const params = new URLSearchParams();
  for (let i = Math.floor(g.next() * 4); i > 0; i--) {
    const name = g.chance(0.5) && operation.parameters.length ? g.pick(operation.parameters) : g.pick(QUERY_NAMES);
    params.append(name, String(randomValue(g, 3)));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** The operations of the gateway's OpenAPI document. */
async function operations(services: string): Promise<Operation[]> {
  const document = (await (await fetch(`${services}/openapi.json`)).json()) as { paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>> };
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
      found.push({ method: method.toUpperCase(), path, parameters: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name) });
    }
  }
  return found;
}

export async function runHttpFuzz(options: FuzzOptions): Promise<FuzzResult> {
  const started = Date.now();
  const ops = await operations(options.services);
  const byStatus: Record<number, number> = {};
  const failures: string[] = [];
  let index = 0;
  const worker = async () => {
    while (index < options.cases) {
      const i = index++;
      const g = generator(options.seed + i * 7919);
      const operation = g.pick(ops);
      const url = `${options.services}${randomPath(g, operation)}${randomQuery(g, operation)}`;
      const { body, type } = operation.method === 'POST' || operation.method === 'PUT' ? randomBody(g, operation) : {};
      let status = 0;
      let text = '';
      try {
        const response = await fetch(url, {
          method: operation.method,
          headers: { ...options.headers, ...(type ? { 'Content-Type': type } : {}), ...(g.chance(0.1) ? { 'Idempotency-Key': String(g.pick(STRINGS)).replace(/[^\x21-\x7e]/g, '') || 'k' } : {}) },
          body,
          signal: AbortSignal.timeout(30_000),
        });
        status = response.status;
        text = await response.text();
      } catch (error) {
        failures.push(`case ${i} ${operation.method} ${url.slice(0, 200)}: ${(error as Error).message}`);
        continue;
      }
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      const downIndex = status === 503 && /\/rest\/es(\/|$|\?)/.test(url);
      let problem: string | undefined;
      if (status >= 500 && !downIndex) problem = 'server error';
      else if (status >= 400) {
        try {
          if ((JSON.parse(text) as { code?: number }).code !== status) problem = 'error body without its code';
        } catch {
          problem = 'error body is not JSON';
        }
      }
      if (problem) failures.push(`case ${i} (seed ${options.seed}): ${operation.method} ${url.slice(0, 200)} ${body ? body.slice(0, 200) : ''} → ${status} ${problem}: ${text.slice(0, 200)}`);
      if ((i + 1) % 1000 === 0) options.onProgress?.(i + 1);
    }
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  return { cases: options.cases, byStatus, failures, seconds: (Date.now() - started) / 1000 };
}
