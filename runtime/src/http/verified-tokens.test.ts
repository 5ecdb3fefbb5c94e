import { describe, expect, it } from 'vitest';
import type { Principal } from './principal';
import { createVerifiedTokens } from './verified-tokens';

const principal = (sub: string): Principal => ({ sub, organizationId: null, roles: [] });
const NOW = Date.parse('2026-06-01T00:00:00Z');
const inSeconds = (seconds: number) => NOW / 1000 + seconds;

describe('verified tokens', () => {
  it('answers a remembered token until its exp, and not after', () => {
    const tokens = createVerifiedTokens();
    tokens.remember('t', principal('u1'), inSeconds(30), NOW);
    expect(tokens.get('t', NOW + 29_999)).toEqual(principal('u1'));
    expect(tokens.get('t', NOW + 30_000)).toBeUndefined();
  });

  it('checks a long-lived token again after a minute', () => {
    const tokens = createVerifiedTokens();
    tokens.remember('t', principal('u1'), inSeconds(3600), NOW);
    tokens.remember('no-exp', principal('u2'), undefined, NOW);
    expect(tokens.get('t', NOW + 59_999)).toEqual(principal('u1'));
    expect(tokens.get('t', NOW + 60_000)).toBeUndefined();
    expect(tokens.get('no-exp', NOW + 60_000)).toBeUndefined();
  });

  it('does not keep a token that has already expired', () => {
    const tokens = createVerifiedTokens();
    tokens.remember('t', principal('u1'), inSeconds(0), NOW);
    expect(tokens.get('t', NOW)).toBeUndefined();
  });

  it('holds at most its bound, forgetting the oldest first', () => {
    const tokens = createVerifiedTokens(3);
    for (const token of ['a', 'b', 'c', 'd']) tokens.remember(token, principal(token), inSeconds(3600), NOW);
    expect(tokens.get('a', NOW)).toBeUndefined();
    for (const token of ['b', 'c', 'd']) expect(tokens.get(token, NOW)).toEqual(principal(token));
  });
});
