import { randomUUID } from 'node:crypto';
import type { ReadModels } from '@cropcover/read-store';
import type { ExpressionBuilder, Kysely } from 'kysely';

/** A key answers retries for 24 h after its first use (SPEC §5); after that it may be used afresh. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A claim unanswered and not renewed for this long belongs to a request that died with its process: the
 *  process renews its claims every `HEARTBEAT_MS` while it runs them, so a retry gets through within
 *  seconds of a crash, however long a live request takes. */
export const IN_FLIGHT_LEASE_MS = 10 * 1000;
export const HEARTBEAT_MS = 3 * 1000;

/** Expired keys removed per new key, so the table stays about one day of keys without a sweeper. */
const PURGE_BATCH = 100;

export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** Whose key it is: the token `sub` acting for an organization ('' for none). */
export interface KeyScope {
  readonly caller: string;
  readonly organizationId: string;
  readonly key: string;
}

export interface KeyUse extends KeyScope {
  /** The caller's roles, sorted, as JSON: an answer is replayed only to the authority it was made for. */
  readonly roles: string;
  readonly fingerprint: string;
  /** `POST /path`, named back to the caller when the key is reused for another request. */
  readonly request: string;
  readonly now: Date;
}

export type Claim =
  | { readonly outcome: 'claimed'; readonly claimId: string }
  | { readonly outcome: 'replay'; readonly response: StoredResponse }
  | { readonly outcome: 'reused'; readonly firstRequest: string }
  | { readonly outcome: 'other_roles' }
  | { readonly outcome: 'in_flight' };

type KeysDb = Kysely<ReadModels>;

interface KeyRow {
  readonly claim_id: string;
  readonly fingerprint: string;
  readonly roles: string;
  readonly request: string;
  readonly created_at: Date;
  readonly response_status: number | null;
  readonly response_headers: Record<string, string> | null;
  readonly response_body: string | null;
}

const inScope =
  ({ caller, organizationId, key }: KeyScope) =>
  ({ eb, and }: ExpressionBuilder<ReadModels, 'idempotency_keys'>) =>
    and([eb('caller', '=', caller), eb('organization_id', '=', organizationId), eb('key', '=', key)]);

const isExpired = (row: KeyRow, now: Date): boolean =>
  now.getTime() - row.created_at.getTime() >= IDEMPOTENCY_KEY_TTL_MS;

/** A claim its process stopped renewing: the request died unanswered, perhaps after its writes. */
const isLapsed = (row: KeyRow, now: Date): boolean =>
  row.response_status === null && now.getTime() - row.created_at.getTime() >= IN_FLIGHT_LEASE_MS;

const claimValues = (use: KeyUse, claimId: string) => ({
  fingerprint: use.fingerprint,
  roles: use.roles,
  request: use.request,
  claim_id: claimId,
  created_at: use.now,
  response_status: null,
  response_headers: null,
  response_body: null,
});

const purgeExpired = async (db: KeysDb, now: Date): Promise<void> => {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_TTL_MS);
  await db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', cutoff)
    .where(({ eb, selectFrom }) =>
      eb(
        eb.tuple(eb.ref('caller'), eb.ref('organization_id'), eb.ref('key')),
        'in',
        selectFrom('idempotency_keys')
          .select(['caller', 'organization_id', 'key'])
          .where('created_at', '<=', cutoff)
          .limit(PURGE_BATCH)
          .$asTuple('caller', 'organization_id', 'key'),
      ),
    )
    .execute();
};

/** A handful of rounds is plenty: each one loses only to a request that changed the row in between. */
const MAX_ROUNDS = 3;

/**
 * Claims the key for this request, or says why not. The insert … on conflict do nothing is the arbiter:
 * of two first uses at once exactly one inserts. A key past its 24 h, or held by a request that never
 * answered, is taken over by swapping its claim id, which again only one request can do.
 */
export const claimIdempotencyKey = async (db: KeysDb, use: KeyUse): Promise<Claim> => {
  for (let round = 1; round <= MAX_ROUNDS; round += 1) {
    const claimId = randomUUID();
    const inserted = await db
      .insertInto('idempotency_keys')
      .values({
        caller: use.caller,
        organization_id: use.organizationId,
        key: use.key,
        ...claimValues(use, claimId),
      })
      .onConflict((conflict) => conflict.columns(['caller', 'organization_id', 'key']).doNothing())
      .returning('claim_id')
      .executeTakeFirst();
    if (inserted) {
      await purgeExpired(db, use.now);
      return { outcome: 'claimed', claimId };
    }
    const row = await db
      .selectFrom('idempotency_keys')
      .select([
        'claim_id',
        'fingerprint',
        'roles',
        'request',
        'created_at',
        'response_status',
        'response_headers',
        'response_body',
      ])
      .where(inScope(use))
      .executeTakeFirst();
    if (!row) continue;
    // Only the same request may take over a lapsed claim: its first run may have written, and a retry
    // finds what it wrote (resource-id.ts); another request with the key is refused as ever.
    const lapsedForThisRequest = isLapsed(row, use.now) && row.fingerprint === use.fingerprint;
    if (isExpired(row, use.now) || lapsedForThisRequest) {
      const taken = await db
        .updateTable('idempotency_keys')
        .set(claimValues(use, claimId))
        .where(inScope(use))
        .where('claim_id', '=', row.claim_id)
        .returning('claim_id')
        .executeTakeFirst();
      if (taken) return { outcome: 'claimed', claimId };
      continue;
    }
    if (row.fingerprint !== use.fingerprint) return { outcome: 'reused', firstRequest: row.request };
    // Whether a request is allowed depends on who asks: the same sub and organization with other roles
    // may not be, so it gets no answer made for the roles it had.
    if (row.roles !== use.roles) return { outcome: 'other_roles' };
    if (row.response_status === null) return { outcome: 'in_flight' };
    return {
      outcome: 'replay',
      response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body ?? '' },
    };
  }
  return { outcome: 'in_flight' };
};

interface HeldKey extends KeyScope {
  readonly claimId: string;
}

/** Records the answer retries will get; a no-op when the claim was taken over meanwhile. */
export const completeIdempotencyKey = async (db: KeysDb, held: HeldKey, response: StoredResponse): Promise<void> => {
  await db
    .updateTable('idempotency_keys')
    .set({
      response_status: response.status,
      response_headers: JSON.stringify(response.headers),
      response_body: response.body,
    })
    .where(inScope(held))
    .where('claim_id', '=', held.claimId)
    .execute();
};

/** Renews a claim still running (its `created_at` becomes now); a no-op once answered or taken over. */
export const holdIdempotencyKey = async (db: KeysDb, held: HeldKey, now: Date): Promise<void> => {
  await db
    .updateTable('idempotency_keys')
    .set({ created_at: now })
    .where(inScope(held))
    .where('claim_id', '=', held.claimId)
    .where('response_status', 'is', null)
    .execute();
};

/** Frees the key so a retry runs the request again (after a 5xx, or an answer that invites a retry). */
export const releaseIdempotencyKey = async (db: KeysDb, held: HeldKey): Promise<void> => {
  await db.deleteFrom('idempotency_keys').where(inScope(held)).where('claim_id', '=', held.claimId).execute();
};
