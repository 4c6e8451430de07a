export * from './fixtures.ts';
export * from './reference-data.ts';
