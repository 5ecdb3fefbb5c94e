import type { ProblemCode } from '@cropcover/contracts';

// Why a command was refused, in domain terms. The command API maps each reason to one HTTP status:
// not_found 404, forbidden 403, conflict 409, precondition_failed 412 (a version the client named as a
// condition of the request, RFC 9110 If-Match), rejected 422.
export type RefusalReason = 'not_found' | 'forbidden' | 'conflict' | 'precondition_failed' | 'rejected';

/** One entry of a refusal's `errors[]`: where and what, and any numbers that say why (a capacity
 *  refusal names the limit, its capacity, what is committed and what was asked). */
export interface RefusalEntry {
  readonly path: string;
  readonly message: string;
  readonly [detail: string]: unknown;
}

export class DomainError extends Error {
  constructor(
    readonly reason: RefusalReason,
    /** One of the API's problem codes (contracts/src/http-api/problem-codes.ts), so a route can declare it. */
    readonly code: ProblemCode,
    message: string,
    readonly errors?: readonly RefusalEntry[],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
