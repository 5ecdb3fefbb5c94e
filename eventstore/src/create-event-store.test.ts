import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createEventStore } from './create-event-store';
import { isKurrentDbUrl } from './kurrentdb/kurrentdb-url';

describe('event store selection', () => {
  it('recognises KurrentDB and EventStoreDB connection strings', () => {
    for (const url of ['kurrentdb://localhost:2113?tls=false', 'esdb://localhost:2113', 'kurrentdb+discover://a:2113'])
      expect(isKurrentDbUrl(url)).toBe(true);
    for (const url of ['postgres://localhost/db', 'http://localhost:2113', 'kurrentdb:/x'])
      expect(isKurrentDbUrl(url)).toBe(false);
  });

  it('refuses any other EVENTSTORE_URL, naming the variable but not the credentials in it', () => {
    const pool = new pg.Pool();
    expect(() => createEventStore({ eventstoreUrl: 'postgres://admin:s3cret@db/events', pool })).toThrow(
      /^EVENTSTORE_URL must be a kurrentdb:\/\/ or esdb:\/\/ URL.*got postgres:\/\/…$/,
    );
    expect(() => createEventStore({ eventstoreUrl: 'postgres://admin:s3cret@db/events', pool })).not.toThrow(/s3cret/);
  });
});
