import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEVELOPMENT_CONFIG, loadRestConfig, RestConfigError } from '../src/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'rex-config-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('loadRestConfig', () => {
  it('when the development configuration is loaded, then its methods come in file order with their options', () => {
    const config = loadRestConfig(DEVELOPMENT_CONFIG);
    expect(config.methods.map((m) => m.name)).toEqual(['jwtUser', 'jwtClient', 'directClient', 'directUser', 'directWebsite']);
    expect(config.methods[0].options).toMatchObject({ allow_http: true, allow_cors: true });
    expect(config.claim_namespace).toBe('indicia.org.uk');
  });

  it('when a method leaves out allow_http, then it is HTTPS only', () => {
    const config = loadRestConfig(file('min.json', JSON.stringify({ authentication_methods: { jwtUser: {} } })));
    expect(config.methods).toEqual([{ name: 'jwtUser', options: { allow_http: false, allow_cors: false, resource_options: {} } }]);
  });

  it('when a method name is unknown, then loading fails naming the key', () => {
    expect(() => loadRestConfig(file('bad.yaml', 'authentication_methods:\n  jwtUzer: {}\n'))).toThrow(/authentication_methods/);
  });

  it('when an option has the wrong type, then loading fails naming the option', () => {
    expect(() => loadRestConfig(file('bad2.yaml', 'authentication_methods:\n  jwtUser:\n    allow_http: "yes"\n'))).toThrow(
      /authentication_methods\.jwtUser\.allow_http/,
    );
  });

  it('when a search end-point has no url, then loading fails naming it', () => {
    expect(() => loadRestConfig(file('bad3.yaml', 'search_index:\n  es:\n    index: occurrence\n'))).toThrow(/search_index\.es\.url/);
  });

  it('when a search end-point is named like an API resource, then loading fails naming it', () => {
    expect(() => loadRestConfig(file('bad4.yaml', 'search_index:\n  samples:\n    index: x\n    url: http://127.0.0.1:9200\n'))).toThrow(/search_index: end-point name\(s\) samples/);
  });

  it('when the file is missing, then a RestConfigError says which file', () => {
    expect(() => loadRestConfig(join(dir, 'missing.yaml'))).toThrow(RestConfigError);
  });

  it('when a value carries a tag YAML does not know (!!js/function), then loading fails naming it, and nothing is warned', () => {
    const warned: unknown[] = [];
    const listen = (warning: unknown) => warned.push(warning);
    process.on('warning', listen);
    try {
      const path = file('tagged.yaml', 'authentication_methods:\n  jwtUser:\n    claim_namespace: !!js/function "f"\n');
      expect(() => loadRestConfig(path)).toThrow(/tagged\.yaml.*Unresolved tag.*js\/function/s);
    } finally {
      process.off('warning', listen);
    }
    expect(warned).toEqual([]);
  });
});

describe('shipped example configurations', () => {
  it.each(['jwt-only.yaml', 'full-development.yaml'])('when %s is loaded, then it is valid', (name) => {
    const config = loadRestConfig(join(DEVELOPMENT_CONFIG, '..', 'examples', name));
    expect(config.methods.length).toBeGreaterThan(0);
  });

  it('when the jwt-only example is loaded, then jwtUser is the one method and it is HTTPS only', () => {
    const config = loadRestConfig(join(DEVELOPMENT_CONFIG, '..', 'examples', 'jwt-only.yaml'));
    expect(config.methods).toEqual([{ name: 'jwtUser', options: { allow_http: false, allow_cors: true, resource_options: {} } }]);
  });
});
