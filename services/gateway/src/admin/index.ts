export * from './fixtures.ts';
export * from './accounts.ts';
