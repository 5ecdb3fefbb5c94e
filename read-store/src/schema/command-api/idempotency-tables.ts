import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../columns';

// The command API's idempotency keys: not a projection of events but a record of answers already given,
// so a rebuild of the projections leaves it alone.

/** The replayed response headers by name; goes in as JSON text. */
export type ResponseHeadersColumn = ColumnType<Record<string, string> | null, string | null, string | null>;

export interface IdempotencyKeysTable {
  /** The token `sub` that used the key: keys are scoped to their caller… */
  caller: string;
  /** …acting for this organization (`org_id`, '' for none). */
  organization_id: string;
  key: string;
  /** The caller's roles when the answer was made (sorted JSON array): replayed only to the same roles. */
  roles: string;
  /** sha-256 (hex) of the method, path and canonical JSON body of the first request with this key. */
  fingerprint: string;
  /** `POST /path` of the first request, to name it when the key is reused elsewhere. */
  request: string;
  /** Which request holds the key; only that one may complete or release it. */
  claim_id: string;
  created_at: Timestamp;
  /** The response replayed to retries; null while the first request is still in flight. */
  response_status: number | null;
  response_headers: ResponseHeadersColumn;
  response_body: string | null;
}
