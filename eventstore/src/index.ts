export { createEventStore, type EventStoreSelection } from './create-event-store';
export { createKurrentDbEventStore, type KurrentDbEventStoreOptions } from './kurrentdb/kurrentdb-event-store';
export { isKurrentDbUrl } from './kurrentdb/kurrentdb-url';
export {
  type AllStreamStart,
  type AppendResult,
  type EventMetadata,
  type EventStore,
  type ExpectedRevision,
  type GlobalPosition,
  type NewEvent,
  type RecordedEvent,
  WrongExpectedRevisionError,
} from './port';
export { comparePositions, formatPosition, isAtOrAfter, parsePosition } from './position';
// The audit's reads of the PostgreSQL log: stored bytes and leaves in commit order
export {
  type LogLeaf,
  readLeavesInCommitOrder,
  readStoredEvents,
  readStoredEventsAt,
} from './postgres/audit-read';
export { createPostgresEventStore, type PostgresEventStoreOptions } from './postgres/postgres-event-store';
export { migrateEventStore } from './postgres/schema';
export type { StoredLogEvent } from './stored-log-event';
export { UnstorableEventTextError } from './stored-text';
export { createUpcast, type Upcast, type Upcaster } from './upcasting';
