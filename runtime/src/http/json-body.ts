import express, { type Request, type RequestHandler } from 'express';
import { nestsDeeperThan } from './json-depth';
import { ProblemError } from './problem';

/** 1 MiB, in bytes. */
export const JSON_BODY_LIMIT = 1024 * 1024;

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

const mebibytes = (bytes: number): string => `${bytes / (1024 * 1024)} MiB`;

/** How far past its limit an announced body is still read (and discarded) before the 413: a client that
 *  sends a little too much gets its answer after its upload, as HTTP clients expect, rather than a reset
 *  connection mid-upload. */
const OVERSIZE_DRAIN_BYTES = 8 * 1024 * 1024;

/** A Content-Length far over the limit is refused from the header alone (SPEC §5): body-parser would
 *  refuse it too, but only after draining the announced body, so a client announcing a gigabyte and
 *  sending nothing held the request until its timeout. `Connection: close` because the body is never
 *  read. Up to OVERSIZE_DRAIN_BYTES over, body-parser reads it and answers the same 413. */
const refuseAnnouncedOversize =
  (limitOf: (path: string) => number): RequestHandler =>
  (req, _res, next) => {
    const limit = limitOf(req.path);
    if (Number(req.headers['content-length'] ?? 0) > limit + OVERSIZE_DRAIN_BYTES)
      throw ProblemError.payloadTooLarge(`The request body is larger than ${mebibytes(limit)}.`, {
        Connection: 'close',
      });
    next();
  };

const refuseDeepJson: RequestHandler = (req, _res, next) => {
  if (nestsDeeperThan(req.body, MAX_JSON_DEPTH))
    throw ProblemError.badRequest('json_too_deep', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  next();
};

/** A route that takes a text form of its JSON body (`RouteRequest.text`): its path pattern and media type. */
export interface TextBodyRoute {
  readonly path: RegExp;
  readonly mediaType: string;
}

/** 415 rule, then parsing up to 1 MiB; too large → 413 (at once when Content-Length is far over), invalid
 *  JSON → 400 via the problem handler, and nesting deeper than MAX_JSON_DEPTH → 400.
 *  `largerLimits` names the few bulk paths (exact path → limit in bytes) whose documented batch sizes
 *  need more. */
export const jsonBody = (
  largerLimits: Readonly<Record<string, number>> = {},
  fileBodyPaths: readonly RegExp[] = [],
  textBodyRoutes: readonly TextBodyRoute[] = [],
): RequestHandler[] => {
  const limits = new Map(Object.entries(largerLimits));
  const limitOf = (path: string): number => limits.get(path) ?? JSON_BODY_LIMIT;
  const standard = express.json({ limit: JSON_BODY_LIMIT, type: JSON_TYPES });
  const larger = new Map([...limits].map(([path, limit]) => [path, express.json({ limit, type: JSON_TYPES })]));
  const json = [
    requireJsonBody,
    refuseAnnouncedOversize(limitOf),
    (req, res, next) => (larger.get(req.path) ?? standard)(req, res, next),
    refuseDeepJson,
  ] satisfies RequestHandler[];
  // A text form is read as a string under the JSON body's limit; the route reads it into its JSON body.
  const texts = new Map(
    textBodyRoutes.map(({ mediaType }) => [mediaType, express.text({ limit: JSON_BODY_LIMIT, type: mediaType })]),
  );
  const textFormOf = (req: Request): RequestHandler | undefined => {
    const route = textBodyRoutes.find(({ path, mediaType }) => path.test(req.path) && req.is(mediaType));
    return route && texts.get(route.mediaType);
  };
  const text = [
    refuseAnnouncedOversize(limitOf),
    (req, res, next) => textFormOf(req)!(req, res, next),
  ] satisfies RequestHandler[];
  // Routes that take a file stream it themselves, under their own limit; a text form skips the JSON parser.
  return [
    ...json.map(
      (handler): RequestHandler =>
        (req, res, next) =>
          fileBodyPaths.some((path) => path.test(req.path)) || textFormOf(req) ? next() : handler(req, res, next),
    ),
    ...text.map(
      (handler): RequestHandler =>
        (req, res, next) =>
          textFormOf(req) ? handler(req, res, next) : next(),
    ),
  ];
};
