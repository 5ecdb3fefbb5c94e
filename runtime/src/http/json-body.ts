import express, { type RequestHandler } from 'express';
import { nestsDeeperThan } from './json-depth';
import { ProblemError } from './problem';

export const JSON_BODY_LIMIT = '1mb';

/** Far beyond any request schema (a few levels); deeper bodies only exist to exhaust a recursive walk
 *  such as the idempotency fingerprint's, so they are refused before anything else reads them. */
export const MAX_JSON_DEPTH = 32;

const carriesBody = (headers: Record<string, string | string[] | undefined>): boolean =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/** Bodies are JSON: a request that carries a body of another (or no) media type gets 415. */
const requireJsonBody: RequestHandler = (req, _res, next) => {
  if (carriesBody(req.headers) && !req.is(['application/json', 'application/*+json']))
    throw ProblemError.unsupportedMediaType();
  next();
};

const JSON_TYPES = ['application/json', 'application/*+json'];

const refuseDeepJson: RequestHandler = (req, _res, next) => {
  if (nestsDeeperThan(req.body, MAX_JSON_DEPTH))
    throw ProblemError.badRequest('json_too_deep', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  next();
};

/** 415 rule, then parsing up to 1 MiB; too large → 413, invalid JSON → 400 via the problem handler, and
 *  nesting deeper than MAX_JSON_DEPTH → 400.
 *  `largerLimits` names the few bulk paths (exact path → limit) whose documented batch sizes need more. */
export const jsonBody = (largerLimits: Readonly<Record<string, string>> = {}): RequestHandler[] => {
  const standard = express.json({ limit: JSON_BODY_LIMIT, type: JSON_TYPES });
  const larger = new Map(
    Object.entries(largerLimits).map(([path, limit]) => [path, express.json({ limit, type: JSON_TYPES })]),
  );
  return [requireJsonBody, (req, res, next) => (larger.get(req.path) ?? standard)(req, res, next), refuseDeepJson];
};
