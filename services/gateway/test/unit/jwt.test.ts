import { describe, expect, it } from 'vitest';
import { bearerToken, peekPayload } from '../../src/auth/jwt.ts';
import { HttpError } from '../../src/http-error.ts';

const encode = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const tokenWith = (payload: unknown) => `${encode({ alg: 'RS256' })}.${encode(payload)}.signature`;

function statusOf(fn: () => unknown): number | undefined {
  try {
    fn();
  } catch (error) {
    return error instanceof HttpError ? error.status : -1;
  }
  return undefined;
}

describe('bearerToken', () => {
  it.each([
    ['Bearer abc.def.ghi', 'abc.def.ghi'],
    ['bearer abc.def.ghi', 'abc.def.ghi'],
    ['BEARER   abc.def.ghi  ', 'abc.def.ghi'],
  ])('when the header is %j, then the token is read', (header, expected) => {
    expect(bearerToken(header)).toBe(expected);
  });

  it.each([undefined, '', 'Basic dXNlcjpwYXNz', 'Bearer', 'Bearer a b', 'USER:x:SECRET:y'])('when the header is %j, then it is not a bearer token', (header) => {
    expect(bearerToken(header)).toBeUndefined();
  });
});

describe('peekPayload', () => {
  it('when the payload has an iss, then it is returned before verification', () => {
    expect(peekPayload(tokenWith({ iss: 'https://site', x: 1 }))).toEqual({ iss: 'https://site', x: 1 });
  });

  it('when the token does not have three parts, then 401', () => {
    expect(statusOf(() => peekPayload('abc.def'))).toBe(401);
    expect(statusOf(() => peekPayload('a.b.c.d'))).toBe(401);
  });

  it('when the payload is not JSON, then 400', () => {
    expect(statusOf(() => peekPayload(`${encode({})}.${encode('not json')}.sig`))).toBe(400);
  });

  it('when the payload has no iss, or a non-text one, then 400', () => {
    expect(statusOf(() => peekPayload(tokenWith({ sub: 'x' })))).toBe(400);
    expect(statusOf(() => peekPayload(tokenWith({ iss: 42 })))).toBe(400);
    expect(statusOf(() => peekPayload(tokenWith([1, 2])))).toBe(400);
  });
});
