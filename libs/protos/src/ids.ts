/**
 * A record id as the API and the protos carry it: a positive int64 in decimal, at most 18 digits,
 * so every id fits PostgreSQL's bigint.
 */
export const RECORD_ID = /^[1-9]\d{0,17}$/;

export const isRecordId = (value: unknown): value is string => typeof value === 'string' && RECORD_ID.test(value);
