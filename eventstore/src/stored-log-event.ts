import type { StoredEvent } from '@cropcover/verifiable-log';
import type { GlobalPosition } from './port';

/** An event as the log stored and hashed it (SPEC §7 Audit), on either adapter: verifiable-log's
 *  `StoredEvent` (the RFC 8785 texts and `prev` its leaf is hashed over) with the leaf the adapter read
 *  beside it and its position in the log; the same on both adapters. */
export interface StoredLogEvent extends StoredEvent {
  readonly leafHash: Uint8Array;
  readonly position: GlobalPosition;
}
