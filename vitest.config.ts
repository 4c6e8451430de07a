import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // With --coverage, the reporter below adds what the service processes of the e2e tier ran.
    reporters: ['default', './scripts/coverage-reporter.ts'],
    // One temporary directory for the whole run, removed at its end (each project inherits this setup).
    globalSetup: ['scripts/test-temp-root.ts'],
    // Two workers even on two cores: unit and component files wait on databases and sockets as much as on the CPU.
    maxWorkers: 2,
    coverage: {
      provider: 'v8',
      include: ['services/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
      exclude: ['libs/protos/src/generated/**'],
      reporter: ['text-summary', 'json-summary', 'html'],
      reportsDirectory: 'coverage',
      // Lines, counted over every tier (scripts/coverage-reporter.ts adds what the service processes ran).
      thresholds: { 'services/**': { lines: 85 }, 'libs/**': { lines: 85 } },
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['libs/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'tools/*/test/**/*.test.ts', 'scripts/test/**/*.test.ts'],
          exclude: ['services/*/test/component/**', '**/node_modules/**'],
          // A worker keeps the modules it has imported from one file to the next (half the tier's time was imports).
          isolate: false,
        },
      },
      {
        // Each service in the test's own process, over a real gRPC server and a database of the file's own.
        extends: true,
        test: {
          name: 'component',
          include: ['services/*/test/component/**/*.test.ts'],
          globalSetup: ['component/support/database-server.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 120_000,
          fileParallelism: false,
          // After the unit and component files (a project of one worker runs in a group of its own).
          sequence: { groupOrder: 1 },
          // One worker runs the files one after another without importing the support modules anew for each.
          isolate: false,
        },
      },
    ],
  },
});
