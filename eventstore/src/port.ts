// The event store port: the only way the command side and the projector touch the log.
// Both adapters (PostgreSQL, KurrentDB) implement it and pass one contract test suite.

/** A position in the global log. PostgreSQL: commit = transaction_id (xid8), prepare = global position.
 *  KurrentDB: its own commit/prepare positions. Ordered lexicographically by (commit, prepare). */
export interface GlobalPosition {
  readonly commit: bigint;
  readonly prepare: bigint;
}

export interface EventMetadata {
  readonly event_id: string;
  readonly occurred_at: string;
  readonly actor: string;
  readonly organization_id: string | null;
  readonly correlation_id: string;
  readonly causation_id: string | null;
  readonly schema_version: number;
  readonly platform_version: string;
  /** W3C Trace Context of the append that wrote the event, when tracing was on; older events have none. */
  readonly traceparent?: string;
  readonly tracestate?: string;
}

export interface NewEvent<Type extends string = string, Data = unknown> {
  readonly type: Type;
  readonly data: Data;
  readonly metadata: EventMetadata;
}

export interface RecordedEvent<Type extends string = string, Data = unknown> extends NewEvent<Type, Data> {
  readonly streamId: string;
  /** 0-based revision of the event within its stream. */
  readonly revision: number;
  readonly position: GlobalPosition;
}

/** `no_stream`: the stream must not exist; a number: the revision of the stream's last event; `any`: no check. */
export type ExpectedRevision = 'no_stream' | 'any' | number;

export interface AppendResult {
  /** Revision of the last appended event. */
  readonly nextExpectedRevision: number;
  /** Position of the last appended event; read models caught up to it contain the write. */
  readonly position: GlobalPosition;
}

/** One stream's part of a multi-stream append. */
export interface StreamAppend {
  readonly streamId: string;
  readonly events: readonly NewEvent[];
  readonly expected: ExpectedRevision;
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export type AllStreamStart = 'start';

export interface SubscriptionOptions {
  /** Most events handed to the handler at once. */
  readonly batchSize?: number;
  /** Called when the handler or the store fails; the subscription retries the same batch after a pause. */
  readonly onError?: (error: unknown) => void;
}

export interface Subscription {
  /** Stops after the batch in progress, if any, has been handled. */
  stop(): Promise<void>;
}

export interface EventStore {
  append(streamId: string, events: readonly NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Appends to several distinct streams atomically: all are written, in one transaction, or none is. Any
   *  expected revision that does not hold fails the whole call with a WrongExpectedRevisionError naming
   *  that stream. Results are in the order of `appends`, and so are the events' positions in $all. */
  appendToStreams(appends: readonly StreamAppend[]): Promise<AppendResult[]>;
  /** Events of one stream in revision order; [] when the stream does not exist. */
  readStream(streamId: string, options?: { fromRevision?: number; limit?: number }): Promise<RecordedEvent[]>;
  /** Up to `limit` events strictly after `after`, in global order. Never skips an event committed later
   *  by a transaction that started earlier; on PostgreSQL that means an append shows here only once every
   *  transaction older than it, anywhere on the server, has ended. */
  readAll(after: GlobalPosition | AllStreamStart, limit: number): Promise<RecordedEvent[]>;
  /** Catch-up subscription: hands batches in global order, strictly after `after`, then follows new
   *  appends live. The next batch is read only after the handler's promise resolved. */
  subscribeToAll(
    after: GlobalPosition | AllStreamStart,
    handler: (batch: readonly RecordedEvent[]) => Promise<void>,
    options?: SubscriptionOptions,
  ): Subscription;
  /** The position of the newest event visible to readAll, or 'start' for an empty log. */
  headPosition(): Promise<GlobalPosition | AllStreamStart>;
  /** False when no append so far can have been given this position (it lies beyond everything the log
   *  has handed out), so a `Consistency-Token` naming it was not issued by this service. */
  mayHaveIssued(position: GlobalPosition): Promise<boolean>;
  close(): Promise<void>;
}
