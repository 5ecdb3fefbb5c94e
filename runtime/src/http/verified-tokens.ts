import type { Principal } from './principal';

/** Tokens remembered at most: a token is ~300 bytes and its principal less, so about 10 MB at the bound. */
const MAX_TOKENS = 20_000;
/** How long a verified token is trusted without its signature being checked again. Bounded so a key the
 *  identity provider rotates out stops being honoured within a minute, as it is by jose's JWKS cache. */
const TRUST_MS = 60_000;

interface Verified {
  readonly principal: Principal;
  /** When the cached verification stops counting: the token's own `exp` or the trust period, whichever is first. */
  readonly untilMs: number;
}

export interface VerifiedTokens {
  /** The principal of a token verified before and still valid at `nowMs`, if any. */
  get(token: string, nowMs: number): Principal | undefined;
  remember(token: string, principal: Principal, expiresAtSeconds: number | undefined, nowMs: number): void;
}

/**
 * A bounded cache of tokens whose signature and claims passed: a client sends the same token with every
 * request, and checking its HMAC or RSA signature each time was ~8 % of an HTTP worker's CPU on farm
 * creates (profile in docs/benchmarks.md). Only successes are kept; expiry is checked on every use against
 * the injected clock, exactly as a fresh verification would.
 */
export const createVerifiedTokens = (maxTokens = MAX_TOKENS): VerifiedTokens => {
  const verified = new Map<string, Verified>();
  return {
    get: (token, nowMs) => {
      const entry = verified.get(token);
      if (!entry) return undefined;
      if (nowMs < entry.untilMs) return entry.principal;
      verified.delete(token);
      return undefined;
    },
    remember: (token, principal, expiresAtSeconds, nowMs) => {
      const untilMs = Math.min(nowMs + TRUST_MS, expiresAtSeconds === undefined ? Infinity : expiresAtSeconds * 1000);
      if (untilMs <= nowMs) return;
      // Map keeps insertion order: the first key is the oldest entry.
      if (verified.size >= maxTokens) verified.delete(verified.keys().next().value as string);
      verified.set(token, { principal, untilMs });
    },
  };
};
