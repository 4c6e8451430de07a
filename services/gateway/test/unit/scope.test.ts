import { describe, expect, it } from 'vitest';
import { selectScope } from '../../src/auth/scope.ts';
import { HttpError } from '../../src/http-error.ts';

const select = (tokenScope: unknown, requested?: string, namespacedScope?: unknown) =>
  selectScope({ tokenScope, namespacedScope, requested, fallback: 'userWithinWebsite' });

describe('selectScope', () => {
  it('when the token lists no scopes and none is asked for, then the fallback applies', () => {
    expect(select(undefined)).toBe('userWithinWebsite');
  });

  it('when the token lists scopes as a string, then the first applies by default', () => {
    expect(select('reporting verification')).toBe('reporting');
  });

  it('when the token lists scopes as an array and the request asks for one of them, then that one applies', () => {
    expect(select(['reporting', 'verification'], 'verification')).toBe('verification');
  });

  it('when the request asks for a scope the token does not list, then 403', () => {
    expect(() => select('reporting', 'editing')).toThrow(HttpError);
    try {
      select('reporting', 'editing');
    } catch (error) {
      expect((error as HttpError).status).toBe(403);
    }
  });

  it('when the token has no scope claim, then the namespaced claim is used', () => {
    expect(select(undefined, undefined, 'peer_review moderation')).toBe('peer_review');
  });

  it('when the first listed scope is not a known scope, then userWithinWebsite applies', () => {
    expect(select('superuser')).toBe('userWithinWebsite');
  });

  it('when no scopes are listed and another scope is asked for, then 403', () => {
    expect(() => select(undefined, 'reporting')).toThrow(HttpError);
  });
});
