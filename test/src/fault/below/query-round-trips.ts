import pg from 'pg';

// How long one query's round trip to PostgreSQL takes as a client sees it, on one connection opened
// before a fault (its setup not counted): what docs/reliability.md reports a slowed link added.

const TRIES = 4;
// A token bucket starts full: about this many small round trips pass at once before the rate holds them.
const BURST_SPENT_AFTER = 8;

export interface RoundTrips {
  /** Median of `select 1`, ms. */
  readonly select1Ms: number;
  /** Median of an insert of one small row into a temporary table, ms. */
  readonly insertMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]! * 10) / 10;
};

export interface RoundTripProbe {
  /** The medians, or why they could not be measured (a query past `withinMs`). */
  measure(): Promise<RoundTrips | string>;
  close(): Promise<void>;
}

/** A connection to `url` whose queries may wait `withinMs` each. */
export const roundTripProbe = async (url: string, withinMs: number): Promise<RoundTripProbe> => {
  const client = new pg.Client({ connectionString: url, query_timeout: withinMs });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('create temporary table round_trip (body text)');
  const timed = async (sql: string): Promise<number[]> => {
    const times: number[] = [];
    for (let i = 0; i < TRIES; i++) {
      const from = performance.now();
      await client.query(sql);
      times.push(performance.now() - from);
    }
    return times;
  };
  return {
    measure: async () => {
      try {
        for (let i = 0; i < BURST_SPENT_AFTER; i++) await client.query('select 1');
        const select1Ms = median(await timed('select 1'));
        const insertMs = median(await timed("insert into round_trip values ('one small row')"));
        return { select1Ms, insertMs };
      } catch (error) {
        return `not measured: ${(error as Error).message}`;
      }
    },
    close: () => client.end().catch(() => undefined),
  };
};
