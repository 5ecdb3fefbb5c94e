import { DomainError } from '@cropcover/domain';
import { WrongExpectedRevisionError } from '@cropcover/eventstore';
import { ProblemError } from '@cropcover/runtime';
import type { ErrorRequestHandler } from 'express';

const statusOf = { not_found: 404, forbidden: 403, conflict: 409, precondition_failed: 412, rejected: 422 } as const;
const titleOf = {
  not_found: 'Not found',
  forbidden: 'Forbidden',
  conflict: 'Conflict',
  precondition_failed: 'Precondition failed',
  rejected: 'Unprocessable content',
};

/** Turns a decider's refusal, or a write that kept losing races, into the one HTTP error type. */
export const refusalToProblem: ErrorRequestHandler = (error, _req, _res, next) => {
  if (error instanceof DomainError) {
    next(
      new ProblemError({
        status: statusOf[error.reason],
        code: error.code,
        title: titleOf[error.reason],
        detail: error.message,
        errors: error.errors,
      }),
    );
  } else if (error instanceof WrongExpectedRevisionError) {
    next(ProblemError.conflict('concurrency_conflict', 'The resource kept changing under this request; retry it.'));
  } else {
    next(error);
  }
};
