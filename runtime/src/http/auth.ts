import type { ProblemCode } from '@cropcover/contracts';
import type { RequestHandler } from 'express';
import { createRemoteJWKSet, errors, type JWTPayload, type JWTVerifyOptions, jwtVerify } from 'jose';
import { z } from 'zod';
import { type Clock, systemClock } from '../clock';
import type { AuthConfig } from '../config';
import { attachPrincipal, type Principal } from './principal';
import { ProblemError } from './problem';
import { unstorableTextPaths } from './unstorable-text';
import { createVerifiedTokens } from './verified-tokens';

// Bearer-token authentication. The accepted algorithms are pinned per key source, so `alg: none` and
// algorithm-confusion tokens (an RS256 public key used as an HS256 secret) are rejected before any
// signature is checked.

const HMAC_ALGORITHMS = ['HS256'];
const JWKS_ALGORITHMS = ['RS256', 'ES256'];

const claimsSchema = z.object({
  sub: z.string().min(1),
  org_id: z.string().min(1).nullish(),
  roles: z.array(z.string()).optional(),
  given_name: z.string().optional(),
  family_name: z.string().optional(),
  phone_number: z.string().optional(),
});

const bearer = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i;

const invalidToken = (detail: string, code: ProblemCode = 'invalid_token'): ProblemError =>
  ProblemError.unauthorized(detail, { code, bearerError: 'invalid_token' });

const principalFrom = (payload: JWTPayload): Principal => {
  const claims = claimsSchema.safeParse(payload);
  if (!claims.success) {
    const claim = claims.error.issues[0]?.path.join('.') ?? 'claims';
    throw invalidToken(`The token's "${claim}" claim is missing or not valid.`);
  }
  // Claims become stored text too (the subject, the farmer profile made from the names).
  const [unstorable] = unstorableTextPaths(claims.data);
  if (unstorable) throw invalidToken(`The token's "${unstorable.join('.')}" claim holds NUL or unpaired surrogates.`);
  const { sub, org_id, roles, given_name, family_name, phone_number } = claims.data;
  return {
    sub,
    organizationId: org_id ?? null,
    roles: roles ?? [],
    ...(given_name === undefined ? {} : { givenName: given_name }),
    ...(family_name === undefined ? {} : { familyName: family_name }),
    ...(phone_number === undefined ? {} : { phoneNumber: phone_number }),
  };
};

const rejection = (error: unknown, remoteKeys: boolean): unknown => {
  if (error instanceof errors.JWTExpired) return invalidToken('The token has expired.', 'token_expired');
  // The identity provider's key set could not be had (timeout, bad answer, network error): the token
  // may well be fine, so the caller is told to retry rather than to get a new token.
  // (jose reports a non-200 answer as a generic JOSEError, and a network failure as a plain error.)
  const keysUnavailable =
    error instanceof errors.JWKSTimeout ||
    error instanceof errors.JWKSInvalid ||
    (remoteKeys && (!(error instanceof errors.JOSEError) || error.code === errors.JOSEError.code));
  if (keysUnavailable)
    return ProblemError.serviceUnavailable('authentication_unavailable', 'Token keys cannot be fetched right now.', 5);
  if (!(error instanceof errors.JOSEError)) return error;
  if (error instanceof errors.JWTClaimValidationFailed)
    return invalidToken(`The token's "${error.claim}" claim is not valid.`);
  return invalidToken('The token is malformed, wrongly signed or uses a disallowed algorithm.');
};

type Verify = (token: string, options: JWTVerifyOptions) => Promise<JWTPayload>;

const verifierFor = (auth: AuthConfig): { verify: Verify; algorithms: string[]; remoteKeys: boolean } => {
  if (auth.jwksUrl) {
    const keys = createRemoteJWKSet(new URL(auth.jwksUrl));
    return {
      verify: async (token, options) => (await jwtVerify(token, keys, options)).payload,
      algorithms: JWKS_ALGORITHMS,
      remoteKeys: true,
    };
  }
  if (!auth.jwtSecret) throw new Error('auth config has neither a JWKS URL nor a JWT secret');
  const secret = new TextEncoder().encode(auth.jwtSecret);
  return {
    verify: async (token, options) => (await jwtVerify(token, secret, options)).payload,
    algorithms: HMAC_ALGORITHMS,
    remoteKeys: false,
  };
};

/**
 * Middleware that verifies `Authorization: Bearer <JWT>` and attaches the Principal (see principalOf).
 * Failures are 401 problems with a `WWW-Authenticate: Bearer` challenge.
 */
export const createAuthenticator = (auth: AuthConfig, clock: Clock = systemClock): RequestHandler => {
  const { verify, algorithms, remoteKeys } = verifierFor(auth);
  const verifiedTokens = createVerifiedTokens();
  return async (req, _res, next) => {
    const header = req.get('Authorization');
    if (header === undefined || !/^Bearer\b/i.test(header)) throw ProblemError.unauthorized();
    const token = bearer.exec(header)?.[1];
    if (!token) throw invalidToken('The bearer token is malformed.');
    const now = clock.now();
    const known = verifiedTokens.get(token, now.getTime());
    if (known) {
      attachPrincipal(req, known);
      next();
      return;
    }
    const payload = await verify(token, {
      algorithms,
      currentDate: now,
      ...(auth.issuer ? { issuer: auth.issuer } : {}),
      ...(auth.audience ? { audience: auth.audience } : {}),
    }).catch((error: unknown) => {
      throw rejection(error, remoteKeys);
    });
    const principal = principalFrom(payload);
    verifiedTokens.remember(token, principal, payload.exp, now.getTime());
    attachPrincipal(req, principal);
    next();
  };
};
