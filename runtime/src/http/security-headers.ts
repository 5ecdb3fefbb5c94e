import type { RequestHandler } from 'express';

/** Every response: a browser must take Content-Type as given, never guess (an error echoing input
 *  must not turn into HTML). */
export const noSniff: RequestHandler = (_req, res, next) => {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  next();
};

/** Authenticated responses hold one caller's data: no shared or browser cache may keep them. */
export const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};

/** The docs page is interactive (it sends requests with a pasted token): it may not be framed by
 *  another site (clickjacking). Both headers, for browsers that know only the older one. */
export const noFraming: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', "frame-ancestors 'none'");
  res.setHeader('X-Frame-Options', 'DENY');
  next();
};
