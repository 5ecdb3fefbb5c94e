import { randomBytes } from 'node:crypto';
import type { EventStore } from '../port';
import type { StoredLogEvent } from '../stored-log-event';
import type { Upcaster } from '../upcasting';

/** One log both adapters are tested against; every store it opens reads and writes that same log. */
export interface ContractBackend {
  openStore(upcasters?: readonly Upcaster[]): Promise<EventStore>;
  /** A stream's events as the adapter stored and hashed them (SPEC §7 Audit). */
  readStored(streamId: string): Promise<StoredLogEvent[]>;
  dispose(): Promise<void>;
}

/** The backend and the store the contract opened on it, once for every concern's tests (each concern
 *  reads them in its own `beforeAll`, after the contract's has opened them). */
export interface ContractSubject {
  readonly backend: () => ContractBackend;
  readonly store: () => EventStore;
}

/** Every test writes streams of its own prefix, so tests of one log never see each other's events. */
export const uniquePrefix = (label: string): string => `${label}${randomBytes(4).toString('hex')}-`;
