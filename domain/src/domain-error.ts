// Why a command was refused, in domain terms. The command API maps each reason to one HTTP status:
// not_found 404, forbidden 403, conflict 409, rejected 422.
export type RefusalReason = 'not_found' | 'forbidden' | 'conflict' | 'rejected';

export class DomainError extends Error {
  constructor(
    readonly reason: RefusalReason,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
