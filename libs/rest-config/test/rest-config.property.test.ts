import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { DEVELOPMENT_CONFIG, METHOD_NAMES, RestConfigError, loadRestConfig, type RestConfig } from '../src/index.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

const dir = mkdtempSync(join(tmpdir(), 'rex-config-property-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The configuration, or the loader's refusal; any other error fails the property. */
function attempt(path: string): RestConfig | RestConfigError {
  try {
    return loadRestConfig(path);
  } catch (error) {
    if (error instanceof RestConfigError) return error;
    throw error;
  }
}

// Configurations the schema takes: every section, with names and texts YAML might read otherwise
// ("yes", "null", "0x10", "~", ": ").
const text = fc.oneof(fc.constantFrom('yes', 'no', 'null', '~', '0x10', '1e3', '', ' x ', 'a: b', '- x', '#', "'", '"', '&a', '*a', '!!str'), fc.string({ maxLength: 12 }));
/** The value as JSON holds it (-0 becomes 0), so that JSON and YAML files can say the same. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
const name = fc.oneof(fc.constantFrom('es', 'es-2', 'index_1', 'YES'), fc.stringMatching(/^[A-Za-z0-9_-]{1,8}$/)).filter((n) => n !== 'samples' && n !== 'reports' && n !== 'projects' && n !== 'surveys');
const method = fc.record(
  { allow_http: fc.boolean(), allow_cors: fc.oneof(fc.boolean(), fc.array(text, { maxLength: 2 })), resource_options: fc.dictionary(text, fc.jsonValue({ maxDepth: 2 }).map(asJson), { maxKeys: 2 }) },
  { requiredKeys: [] },
);
const validConfig = fc.record(
  {
    claim_namespace: text.filter((t) => t.length > 0),
    allow_auth_tokens_in_url: fc.boolean(),
    authentication_methods: fc.shuffledSubarray([...METHOD_NAMES]).chain((names) => fc.tuple(...names.map(() => method)).map((options) => Object.fromEntries(names.map((n, i) => [n, options[i]])))),
    clients: fc.dictionary(
      text,
      fc.record({
        shared_secret: text.filter((t) => t.length > 0),
        projects: fc.dictionary(text, fc.record({ website_id: fc.integer({ min: 1, max: 1e6 }), title: text, sharing: fc.constantFrom('reporting', 'verification', 'editing') }, { requiredKeys: ['website_id', 'title'] }), { maxKeys: 2 }),
      }),
      { maxKeys: 2 },
    ),
    search_index: fc.dictionary(
      name,
      fc.record({ index: text, url: fc.constantFrom('http://127.0.0.1:9200', 'https://search.example.org/base/'), open: fc.boolean(), allowed: fc.constant({ get: { '^_search': 'search' } }) }, { requiredKeys: ['index', 'url'] }),
      { maxKeys: 2 },
    ),
    media_queue: fc.record({ max_upload_size: fc.integer({ min: 1, max: 2 ** 40 }), allowed_file_types: fc.array(text, { maxLength: 3 }) }, { requiredKeys: [] }),
    media: fc.record({ public_files: fc.boolean() }),
  },
  { requiredKeys: [] },
);

// Anything a file might hold: YAML of any value, broken YAML, the development file with a part replaced.
const development = parseYaml(readFileSync(DEVELOPMENT_CONFIG, 'utf8')) as Record<string, unknown>;
const keyPath = fc.array(fc.oneof(fc.constantFrom(...Object.keys(development), 'jwtUser', 'allow_http', 'es', 'url', 'allowed', 'get', 'clients', 'x'), text), { minLength: 1, maxLength: 4 });
function replaced(document: unknown, path: string[], value: unknown): unknown {
  if (path.length === 0) return value;
  const base = document && typeof document === 'object' && !Array.isArray(document) ? (document as Record<string, unknown>) : {};
  return { ...base, [path[0]]: replaced(base[path[0]], path.slice(1), value) };
}
const anyFile = fc.oneof(
  fc.tuple(keyPath, fc.jsonValue({ maxDepth: 3 })).map(([path, value]) => toYaml(replaced(development, path, value))),
  fc.jsonValue({ maxDepth: 3 }).map((value) => toYaml(value)),
  fc.constantFrom('a: &a [*a, *a]\nb: *a\n', 'x: !!binary aGVsbG8=\n', 'x: !!set {a, b}\n', 'a: 1\na: 2\n', '<<: *missing\n', '---\na: 1\n---\nb: 2\n', 'claim_namespace: !!js/function "f"\n', '{{{', '\ufeffallow_auth_tokens_in_url: true\n'),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
);

describe('the REST configuration file, property-based', () => {
  it('when a file holds anything, then it loads as a configuration or is refused with a RestConfigError naming the file', () => {
    fc.assert(
      fc.property(anyFile, fc.constantFrom('config.yaml', 'config.json'), (content, fileName) => {
        const path = file(fileName, content);
        const loaded = attempt(path);
        if (loaded instanceof RestConfigError) {
          expect(loaded.message).toContain(path);
          return;
        }
        expect(loaded.methods.map((m) => m.name)).toEqual(Object.keys(loaded.authentication_methods));
      }),
      runs(200),
    );
  });

  it('when a configuration is written as YAML and as JSON, then both load to the same configuration, its methods in the order written', () => {
    fc.assert(
      fc.property(validConfig, (config) => {
        const fromJson = attempt(file('same.json', JSON.stringify(config)));
        const fromYaml = attempt(file('same.yaml', toYaml(config)));
        expect(fromJson).not.toBeInstanceOf(RestConfigError);
        expect(fromYaml).toEqual(fromJson);
        expect((fromJson as RestConfig).methods.map((m) => m.name)).toEqual(Object.keys(config.authentication_methods ?? {}));
      }),
      runs(100),
    );
  });

  it('when a loaded configuration is written out again, then it loads to itself', () => {
    fc.assert(
      fc.property(validConfig, (config) => {
        const { methods: _, ...loaded } = loadRestConfig(file('once.json', JSON.stringify(config)));
        expect(loadRestConfig(file('twice.yaml', toYaml(loaded)))).toEqual(loadRestConfig(file('once.json', JSON.stringify(config))));
      }),
      runs(50),
    );
  });
});
