import type { GlobalPosition } from './port';

/** An event as the log stored and hashed it (SPEC §7 Audit), on either adapter: the leaf is
 *  `eventLeafHash` over these texts and `prev` (verifiable-log), the same on both. */
export interface StoredLogEvent {
  readonly stream: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  /** RFC 8785 texts, exactly as hashed. */
  readonly data: string;
  readonly metadata: string;
  /** The leaf hash of the stream's previous revision; zeros at revision 0. */
  readonly prev: Uint8Array;
  readonly leafHash: Uint8Array;
  readonly position: GlobalPosition;
}
