import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, GrpcServiceEnv, parseEnv, z } from '../../src/index.ts';

// A fixed seed so CI runs the same cases; FUZZ_RUNS raises the runs and FUZZ_SEED picks other cases.
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const runs = (ci: number) => ({ seed: SEED, numRuns: Number(process.env.FUZZ_RUNS ?? ci) });

// The shared settings with one of each kind a service adds: a port, a count, an optional URL, a switch.
const ServiceEnv = GrpcServiceEnv.extend({
  GRPC_PORT: z.coerce.number().int().min(0).max(65535).default(50051),
  DB_POOL_MAX: z.coerce.number().int().min(1).default(10),
  PUBLIC_BASE_URL: z.string().url().optional(),
  PROJECTOR_ENABLED: z.enum(['true', 'false']).default('true'),
});
const SECRET = 's'.repeat(32);
const NUMBERS = ['METRICS_PORT', 'SHUTDOWN_DELAY_MS', 'SHUTDOWN_TIMEOUT_MS', 'GRPC_MAX_CONNECTION_AGE_MS', 'GRPC_MAX_CONNECTION_AGE_GRACE_MS', 'GRPC_PORT', 'DB_POOL_MAX', 'IDLE_COLLECTION_MS'] as const;
const NAMES = [...NUMBERS, 'HEAP_GROWING_PERCENT', 'LOG_LEVEL', 'METRICS_HOST', 'INTERNAL_AUTH_SECRET', 'MIGRATE_ON_START', 'GRPC_HOST', 'PUBLIC_BASE_URL', 'PROJECTOR_ENABLED', 'UNRELATED'];

const value = fc.oneof(
  fc.constantFrom('', ' ', '0', '1', '-1', '65535', '65536', '1e3', '0x10', '1.5', 'NaN', 'Infinity', 'true', 'info', 'http://x', SECRET, '9'.repeat(400)),
  fc.integer().map(String),
  fc.string({ maxLength: 40 }),
);

describe('environment settings, property-based', () => {
  it('when the variables hold anything, then the settings are read or every problem is one ConfigError', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom(...NAMES), value), (env) => {
        let settings;
        try {
          settings = parseEnv(ServiceEnv, env);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
          return;
        }
        for (const name of NUMBERS) expect(Number.isSafeInteger(settings[name]), name).toBe(true);
        expect(settings.INTERNAL_AUTH_SECRET.length).toBeGreaterThanOrEqual(32);
      }),
      runs(2_000),
    );
  });

  it('when a number is written in decimal, then it is read as that number', () => {
    fc.assert(
      fc.property(fc.constantFrom(...NUMBERS), fc.integer({ min: 1_000, max: 65_535 }), (name, number) => {
        expect(parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, [name]: String(number) })[name]).toBe(number);
      }),
      runs(500),
    );
  });

  it('when a variable is set but empty or blank, then it counts as unset: its default, never 0', () => {
    const defaults = parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET });
    fc.assert(
      fc.property(fc.subarray([...NUMBERS, 'HEAP_GROWING_PERCENT', 'LOG_LEVEL', 'GRPC_HOST', 'PUBLIC_BASE_URL', 'PROJECTOR_ENABLED'] as const), fc.constantFrom('', ' ', '\t'), (names, blank) => {
        const env = Object.fromEntries(names.map((name) => [name, blank]));
        expect(parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, ...env })).toEqual(defaults);
      }),
      runs(300),
    );
  });

  it("when HEAP_GROWING_PERCENT is unset, then the heap doubles between full collections (100); 0 leaves it to V8; past 1000 it is refused", () => {
    expect(parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET }).HEAP_GROWING_PERCENT).toBe(100);
    expect(parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, HEAP_GROWING_PERCENT: '0' }).HEAP_GROWING_PERCENT).toBe(0);
    expect(() => parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, HEAP_GROWING_PERCENT: '1001' })).toThrow(ConfigError);
    expect(() => parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, HEAP_GROWING_PERCENT: '1.5' })).toThrow(ConfigError);
  });

  it('when IDLE_COLLECTION_MS is unset, then a process collects after 30 s idle; 0 never; a negative or fractional value is refused', () => {
    expect(parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET }).IDLE_COLLECTION_MS).toBe(30_000);
    expect(parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, IDLE_COLLECTION_MS: '0' }).IDLE_COLLECTION_MS).toBe(0);
    expect(() => parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, IDLE_COLLECTION_MS: '-1' })).toThrow(ConfigError);
    expect(() => parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, IDLE_COLLECTION_MS: '0.5' })).toThrow(ConfigError);
  });

  // Found by the property above: `SHUTDOWN_TIMEOUT_MS=` (as an env file or a manifest's empty value writes it) was read as 0.
  it('when SHUTDOWN_TIMEOUT_MS and GRPC_PORT are empty, then they keep their defaults', () => {
    const settings = parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: SECRET, SHUTDOWN_TIMEOUT_MS: '', GRPC_PORT: ' ' });
    expect([settings.SHUTDOWN_TIMEOUT_MS, settings.GRPC_PORT]).toEqual([10_000, 50051]);
  });

  it('when a required variable is empty, then it is named as missing', () => {
    expect(() => parseEnv(ServiceEnv, { INTERNAL_AUTH_SECRET: '' })).toThrow(/INTERNAL_AUTH_SECRET: required/);
  });
});
