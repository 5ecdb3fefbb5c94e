import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { ProblemError } from './problem';
import { PROBLEM_CONTENT_TYPE, problemType } from './problem-handler';

// Node answers a request it cannot parse, or one that does not arrive within requestTimeout, itself,
// with a bare status line and no body. The server's `clientError` hook is the one place left to keep
// those answers problem details like every other; no request object exists yet, so no instance either.

const problemFor = (code: string | undefined): ProblemError => {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ProblemError({
        status: 431,
        code: 'headers_too_large',
        title: 'Request header fields too large',
        detail: 'The request headers are larger than the server accepts (16 KiB).',
      });
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ProblemError({
        status: 408,
        code: 'request_timeout',
        title: 'Request timeout',
        detail: 'The request did not arrive complete in time (is Content-Length larger than the body?).',
      });
    default:
      return ProblemError.badRequest('malformed_request', 'The request is not valid HTTP/1.1.');
  }
};

const rawResponse = (problem: ProblemError): string => {
  const body = JSON.stringify({
    type: problemType(problem.code),
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    code: problem.code,
    request_id: randomUUID(),
  });
  return [
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status]}`,
    `Content-Type: ${PROBLEM_CONTENT_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    '',
    body,
  ].join('\r\n');
};

/** The server's `clientError` listener: a problem when nothing has been answered yet, else just close. */
export const answerClientError = (error: Error & { code?: string }, socket: Duplex): void => {
  const answering = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (!socket.writable || error.code === 'ECONNRESET' || answering?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(rawResponse(problemFor(error.code)));
};
