import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from 'node:crypto';
import { notifyFarmerKeyErased, type ReadModels } from '@cropcover/read-store';
import type { PersonalDataKey } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

// The farmers' data keys (SPEC §6 erasure), in `farmer_keys` beside the read models and never in the log.
// Each is wrapped (AES-256-GCM, the farmer id as additional data) by a key-encryption key from
// configuration: the first configured one wraps new keys, any configured one unwraps, so a rotation
// puts a new key first and keeps the old ones until every row is rewrapped. These read the table each
// time; `cachedFarmerKeys` keeps them per process and drops one when its erasure is announced.

export interface FarmerKeys {
  /** The farmer's data key, made on first use; undefined once the farmer is erased. */
  keyToSeal(farmerId: string): Promise<KeyObject | undefined>;
  /** The data keys of those farmers that have one and are not erased. */
  keysToOpen(farmerIds: readonly string[]): Promise<Map<string, KeyObject>>;
  /** Destroys the farmer's data key for good; the row stays as a tombstone so no key is made again. The
   *  same transaction announces it to every process (`farmer_key_erased`). */
  erase(farmerId: string, now: Date): Promise<void>;
  close(): Promise<void>;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A key-encryption key as a KeyObject: on Node 24 a cipher made from the key's bytes costs ~10× more
 *  (13 µs against 1–2 µs), paid once per farmer a rebuild opens (docs/benchmarks.md, issue 25). */
interface Kek {
  readonly id: string;
  readonly key: KeyObject;
}

const wrap = (dataKey: Buffer, farmerId: string, kek: Kek): Buffer => {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', kek.key, iv);
  cipher.setAAD(Buffer.from(farmerId, 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(dataKey), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), ciphertext]);
};

const unwrap = (wrapped: Buffer, farmerId: string, kek: Kek): Buffer => {
  const decipher = createDecipheriv('aes-256-gcm', kek.key, wrapped.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(farmerId, 'utf8'));
  decipher.setAuthTag(wrapped.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
};

export const farmerKeysIn = (db: Kysely<ReadModels>, configured: readonly PersonalDataKey[]): FarmerKeys => {
  const keks = configured.map((kek): Kek => ({ id: kek.id, key: createSecretKey(kek.key) }));
  const current = keks[0];
  if (!current) throw new Error('no key-encryption key configured for personal data');
  const byId = new Map(keks.map((kek) => [kek.id, kek]));
  const unwrapRow = (row: { farmer_id: string; kek_id: string | null; wrapped_key: Buffer | null }) => {
    if (row.wrapped_key === null || row.kek_id === null) return undefined;
    const kek = byId.get(row.kek_id);
    if (!kek) throw new Error(`farmer key of ${row.farmer_id} is wrapped by ${row.kek_id}, which is not configured`);
    // A KeyObject, not the bytes: a cipher made from one costs a tenth (docs/benchmarks.md, issue 25).
    return createSecretKey(unwrap(row.wrapped_key, row.farmer_id, kek));
  };
  const stored = (farmerId: string) =>
    db
      .selectFrom('farmer_keys')
      .select(['farmer_id', 'kek_id', 'wrapped_key'])
      .where('farmer_id', '=', farmerId)
      .executeTakeFirst();

  return {
    async keyToSeal(farmerId) {
      const found = await stored(farmerId);
      if (found) return unwrapRow(found);
      await db
        .insertInto('farmer_keys')
        .values({
          farmer_id: farmerId,
          kek_id: current.id,
          wrapped_key: wrap(randomBytes(32), farmerId, current),
          created_at: new Date(),
        })
        .onConflict((conflict) => conflict.column('farmer_id').doNothing())
        .execute();
      // Another writer may have made it first: the stored key is the one.
      const made = await stored(farmerId);
      return made ? unwrapRow(made) : undefined;
    },
    async keysToOpen(farmerIds) {
      if (farmerIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('farmer_keys')
        .select(['farmer_id', 'kek_id', 'wrapped_key'])
        .where('farmer_id', 'in', farmerIds)
        .where('wrapped_key', 'is not', null)
        .execute();
      return new Map(rows.map((row) => [row.farmer_id, unwrapRow(row)!]));
    },
    async erase(farmerId, now) {
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('farmer_keys')
          .values({ farmer_id: farmerId, kek_id: null, wrapped_key: null, created_at: now, erased_at: now })
          .onConflict((conflict) =>
            conflict.column('farmer_id').doUpdateSet({ kek_id: null, wrapped_key: null, erased_at: now }),
          )
          .execute();
        await notifyFarmerKeyErased(trx, farmerId);
      });
    },
    close: async () => undefined,
  };
};
