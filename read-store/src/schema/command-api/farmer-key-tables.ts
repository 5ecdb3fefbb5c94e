import type { NullableTimestamp, Timestamp } from '../../columns';

// The keys of farmers' personal data (SPEC §6 erasure): written where events are sealed and by erasure,
// never projected, so a rebuild of the projections leaves them alone.

export interface FarmerKeysTable {
  farmer_id: string;
  /** Which configured key-encryption key wrapped `wrapped_key`; null once erased. */
  kek_id: string | null;
  /** The farmer's AES-256-GCM data key, wrapped (iv ‖ tag ‖ ciphertext); null once erased. */
  wrapped_key: Buffer | null;
  created_at: Timestamp;
  erased_at: NullableTimestamp;
}

export interface FarmerKeyTables {
  farmer_keys: FarmerKeysTable;
}
