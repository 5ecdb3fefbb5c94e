import type pg from 'pg';
import { createKurrentDbEventStore } from './kurrentdb/kurrentdb-event-store';
import { isKurrentDbUrl } from './kurrentdb/kurrentdb-url';
import type { EventStore } from './port';
import { createPostgresEventStore } from './postgres/postgres-event-store';
import { withTracedAppends } from './traced-appends';
import type { Upcaster } from './upcasting';

export interface EventStoreSelection {
  /** EVENTSTORE_URL: `kurrentdb://…` or `esdb://…` selects KurrentDB; unset or empty selects PostgreSQL. */
  readonly eventstoreUrl?: string;
  /** The service's PostgreSQL pool; holds the events table when no KurrentDB URL is given. */
  readonly pool: pg.Pool;
  readonly upcasters?: readonly Upcaster[];
}

/** The PostgreSQL store needs `migrateEventStore(pool)` to have run; KurrentDB needs no schema. Appends are
 *  traced (and stamp their trace context on the events) whichever store is selected. */
export const createEventStore = ({ eventstoreUrl, pool, upcasters }: EventStoreSelection): EventStore => {
  if (!eventstoreUrl) return withTracedAppends(createPostgresEventStore({ pool, upcasters }));
  if (isKurrentDbUrl(eventstoreUrl))
    return withTracedAppends(createKurrentDbEventStore({ connectionString: eventstoreUrl, upcasters }));
  throw new Error(
    `EVENTSTORE_URL must be a kurrentdb:// or esdb:// URL, or unset for the PostgreSQL event store; got ${eventstoreUrl.split('://')[0]}://…`,
  );
};
