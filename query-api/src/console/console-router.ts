import { join } from 'node:path';
import { consoleBuildDirectory } from '@cropcover/console';
import { ProblemError } from '@cropcover/runtime';
import express, { type RequestHandler, Router } from 'express';

/** The console loads nothing but its own files and speaks to nothing but this API: a script injected
 *  through some data it shows could neither load more code nor send what it reads anywhere else. */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const consoleHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader('Content-Security-Policy', CONSOLE_CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('Referrer-Policy', 'no-referrer');
  next();
};

/** /console: the built console (console/dist). Its files are public, as /docs is: the data comes from
 *  the API, to the token the person signs in with. Assets are named by their content, so they are kept
 *  for a year; the page itself is checked every time, so a new build is seen at once. Every other path
 *  under /console is a page of the console's own router, answered with the same page. */
export const consoleRouter = (directory: string = consoleBuildDirectory): Router => {
  const router = Router();
  router.use(consoleHeaders);
  router.use('/assets', express.static(join(directory, 'assets'), { immutable: true, maxAge: '365d', index: false }));
  router.use('/assets', () => {
    throw ProblemError.notFound('The console has no such file.');
  });
  router.get('/{*page}', (_req, res, next) => {
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile('index.html', { root: directory }, (error) => {
      if (error)
        next(
          ProblemError.serviceUnavailable(
            'console_not_built',
            'The console has not been built: npm start and npm test build it (console/dist).',
          ),
        );
    });
  });
  return router;
};
