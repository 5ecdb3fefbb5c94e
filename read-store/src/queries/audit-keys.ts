import type { Kysely } from 'kysely';
import type { ReadModels } from '../read-models';

export interface SigningKeyRecord {
  readonly vkey: string;
  readonly name: string;
  readonly keyId: string;
  readonly validFrom: Date;
  readonly validTo: Date | null;
}

/** Every key the log's checkpoints were signed with, oldest first (SPEC §7 Audit: rotations published). */
export const loadSigningKeys = async (db: Kysely<ReadModels>): Promise<SigningKeyRecord[]> => {
  const rows = await db.selectFrom('audit_signing_keys').selectAll().orderBy('valid_from').orderBy('vkey').execute();
  return rows.map((row) => ({
    vkey: row.vkey,
    name: row.name,
    keyId: row.key_id,
    validFrom: row.valid_from,
    validTo: row.valid_to,
  }));
};
