import { ProblemError, principalOf, requestContextOf } from '@cropcover/runtime';
import type { RequestHandler, Response } from 'express';
import type { CommandApiDeps } from '../command-api-deps';
import { idempotencyKeyOf } from './idempotency-key-header';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  HEARTBEAT_MS,
  holdIdempotencyKey,
  releaseIdempotencyKey,
  type StoredResponse,
} from './idempotency-records';
import { requestFingerprint } from './request-fingerprint';
import { holdKeyScope } from './resource-id';

/** What a replay must repeat besides status and body: what the body is, where the resource lives, its
 *  version, and how far the read models had got. */
const REPLAYED_HEADERS = ['Content-Type', 'Location', 'ETag', 'Consistency-Token'] as const;

/** Answers that ask for the same request again (the IETF draft: a 409 needs no correction before a
 *  retry), and 5xx, which may be a crash half-way: storing them would replay the failure forever. */
const RETRY_INVITING = new Set([408, 409, 425, 429]);
const isFinalAnswer = (status: number): boolean => status < 500 && !RETRY_INVITING.has(status);

const headersOf = (res: Response): Record<string, string> =>
  Object.fromEntries(
    REPLAYED_HEADERS.flatMap((name) => {
      const value = res.getHeader(name);
      return value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : String(value)]];
    }),
  );

const bodyText = (chunk: unknown): string =>
  typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';

/** Holds the response back until `record` has stored it, so a retry arriving right after the answer
 *  already finds it. Every handler and the problem handler end with res.end, so this sees them all. */
const endOnceRecorded = (res: Response, record: (response: StoredResponse) => Promise<void>): void => {
  const end = res.end.bind(res) as (...args: unknown[]) => Response;
  res.end = ((...args: unknown[]) => {
    res.end = end as Response['end'];
    const response = { status: res.statusCode, headers: headersOf(res), body: bodyText(args[0]) };
    void record(response).then(() => end(...args));
    return res;
  }) as Response['end'];
};

const replay = (res: Response, stored: StoredResponse): void => {
  res.status(stored.status).set(stored.headers).set('Idempotent-Replayed', 'true').end(stored.body);
};

/**
 * `Idempotency-Key` on POST (SPEC §5, IETF draft semantics), scoped to the caller's token `sub` and the
 * organization it acts for, and replayed only to the roles the answer was made under: the first
 * request with a key runs and its answer is kept for 24 h; the same request again gets that answer
 * replayed; another request with the key gets 422; a retry while the first still runs gets 409.
 * Mounted after authentication, so the caller is known and anonymous requests never touch the table.
 */
export const idempotencyKey =
  ({ db, clock }: Pick<CommandApiDeps, 'db' | 'clock'>): RequestHandler =>
  async (req, res, next) => {
    if (req.method !== 'POST') return next();
    const key = idempotencyKeyOf(req);
    if (key === undefined) return next();
    const principal = principalOf(req);
    const scope = { caller: principal.sub, organizationId: principal.organizationId ?? '', key };
    const fingerprint = requestFingerprint(req);
    const claim = await claimIdempotencyKey(db, {
      ...scope,
      roles: JSON.stringify([...principal.roles].sort()),
      fingerprint,
      request: `POST ${req.originalUrl.split('?')[0]}`,
      now: clock.now(),
    });
    switch (claim.outcome) {
      case 'replay':
        return replay(res, claim.response);
      case 'reused':
        throw ProblemError.unprocessable(
          'idempotency_key_reused',
          `This Idempotency-Key was first used for ${claim.firstRequest} with another body; use a new key for a new request.`,
        );
      case 'other_roles':
        throw ProblemError.unprocessable(
          'idempotency_key_reused',
          'This Idempotency-Key was first used with other roles; use a new key for a request made with these.',
        );
      case 'in_flight':
        throw new ProblemError({
          status: 409,
          code: 'idempotency_key_in_flight',
          title: 'Conflict',
          detail: 'A request with this Idempotency-Key is still being processed; retry once it has been answered.',
          headers: { 'Retry-After': '1' },
        });
      case 'claimed': {
        const held = { ...scope, claimId: claim.claimId };
        const { logger } = requestContextOf(req);
        holdKeyScope(res, [scope.caller, scope.organizationId, key, fingerprint]);
        // While the request runs its claim is renewed; a process that dies stops renewing it, and a retry
        // takes the key over within seconds.
        const heartbeat = setInterval(() => {
          holdIdempotencyKey(db, held, clock.now()).catch((error: unknown) =>
            logger.warn({ err: error }, 'could not renew the claim on an Idempotency-Key'),
          );
        }, HEARTBEAT_MS);
        heartbeat.unref();
        endOnceRecorded(res, async (response) => {
          clearInterval(heartbeat);
          if (response.status === 503) {
            // The database could not serve the request (SPEC §10): releasing the claim would wait out the same
            // unreachable database before the answer goes. It is released behind the answer; a retry meanwhile
            // meets 409 in flight with Retry-After, and an unreleased claim frees itself when its lease runs out.
            releaseIdempotencyKey(db, held).catch((error: unknown) =>
              logger.warn({ err: error }, 'could not release the claim on an Idempotency-Key'),
            );
            return;
          }
          try {
            if (isFinalAnswer(response.status)) await completeIdempotencyKey(db, held, response);
            else await releaseIdempotencyKey(db, held);
          } catch (error) {
            // The answer still goes out; the unanswered claim frees itself once its lease has run out.
            logger.error({ err: error }, 'could not record the answer to an idempotent request');
          }
        });
        return next();
      }
    }
  };
