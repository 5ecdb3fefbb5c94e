import { randomUUID } from 'node:crypto';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';

/** A key answers retries for 24 h after its first use (SPEC §5); after that it may be used afresh. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A claim still unanswered after this long belongs to a request that died with its process: far beyond
 *  any request's run (read-your-writes waits 5 s), short enough that a client's retry soon gets through. */
export const IN_FLIGHT_LEASE_MS = 60 * 1000;

/** Expired keys removed per new key, so the table stays about one day of keys without a sweeper. */
const PURGE_BATCH = 100;

export interface StoredResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export interface KeyUse {
  readonly caller: string;
  readonly key: string;
  readonly fingerprint: string;
  /** `POST /path`, named back to the caller when the key is reused for another request. */
  readonly request: string;
  readonly now: Date;
}

export type Claim =
  | { readonly outcome: 'claimed'; readonly claimId: string }
  | { readonly outcome: 'replay'; readonly response: StoredResponse }
  | { readonly outcome: 'reused'; readonly firstRequest: string }
  | { readonly outcome: 'in_flight' };

type KeysDb = Kysely<ReadModels>;

interface KeyRow {
  readonly claim_id: string;
  readonly fingerprint: string;
  readonly request: string;
  readonly created_at: Date;
  readonly response_status: number | null;
  readonly response_headers: Record<string, string> | null;
  readonly response_body: string | null;
}

const isAbandoned = (row: KeyRow, now: Date): boolean => {
  const age = now.getTime() - row.created_at.getTime();
  return age >= IDEMPOTENCY_KEY_TTL_MS || (row.response_status === null && age >= IN_FLIGHT_LEASE_MS);
};

const claimValues = (use: KeyUse, claimId: string) => ({
  fingerprint: use.fingerprint,
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
        eb.tuple(eb.ref('caller'), eb.ref('key')),
        'in',
        selectFrom('idempotency_keys')
          .select(['caller', 'key'])
          .where('created_at', '<=', cutoff)
          .limit(PURGE_BATCH)
          .$asTuple('caller', 'key'),
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
      .values({ caller: use.caller, key: use.key, ...claimValues(use, claimId) })
      .onConflict((conflict) => conflict.columns(['caller', 'key']).doNothing())
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
        'request',
        'created_at',
        'response_status',
        'response_headers',
        'response_body',
      ])
      .where('caller', '=', use.caller)
      .where('key', '=', use.key)
      .executeTakeFirst();
    if (!row) continue;
    if (isAbandoned(row, use.now)) {
      const taken = await db
        .updateTable('idempotency_keys')
        .set(claimValues(use, claimId))
        .where('caller', '=', use.caller)
        .where('key', '=', use.key)
        .where('claim_id', '=', row.claim_id)
        .returning('claim_id')
        .executeTakeFirst();
      if (taken) return { outcome: 'claimed', claimId };
      continue;
    }
    if (row.fingerprint !== use.fingerprint) return { outcome: 'reused', firstRequest: row.request };
    if (row.response_status === null) return { outcome: 'in_flight' };
    return {
      outcome: 'replay',
      response: { status: row.response_status, headers: row.response_headers ?? {}, body: row.response_body ?? '' },
    };
  }
  return { outcome: 'in_flight' };
};

interface HeldKey {
  readonly caller: string;
  readonly key: string;
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
    .where('caller', '=', held.caller)
    .where('key', '=', held.key)
    .where('claim_id', '=', held.claimId)
    .execute();
};

/** Frees the key so a retry runs the request again (after a 5xx, or an answer that invites a retry). */
export const releaseIdempotencyKey = async (db: KeysDb, held: HeldKey): Promise<void> => {
  await db
    .deleteFrom('idempotency_keys')
    .where('caller', '=', held.caller)
    .where('key', '=', held.key)
    .where('claim_id', '=', held.claimId)
    .execute();
};
