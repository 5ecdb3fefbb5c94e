import type pg from 'pg';

// "No lease is held twice" (SPEC §10 Clocks), watched from outside: the lease tables are sampled every
// 100 ms on the database's clock. A holder believes its lease good for its length from the moment it
// claimed or last renewed it (a renewal shows as a new `leased_until`), whatever its own clock says; a
// row taken under another lease before that length has passed, by the database's clock, was held by two
// processes at once. Sampling sees a renewal up to 100 ms late, which only makes the check kinder.

const SAMPLE_MS = 100;
const SLACK_MS = 500;

interface LeasedTable {
  readonly name: string;
  readonly query: string;
  readonly leaseMs: number;
}

// The lengths are the services' own (workers' DELIVERY_LEASE_MS and POLICY_LEASE_MS).
const TABLES: readonly LeasedTable[] = [
  {
    name: 'webhook delivery',
    query: `select event_id || '/' || webhook_id as row, lease_id, leased_until::text as until
              from webhook_deliveries where lease_id is not null`,
    leaseMs: 5_000,
  },
  {
    name: 'policy monitor round',
    query: `select policy_id as row, lease_id, leased_until::text as until
              from policy_monitor_rounds where lease_id is not null`,
    leaseMs: 120_000,
  },
];

interface Held {
  readonly leaseId: string;
  readonly until: string;
  /** When this lease was first seen with this `until`: its claim or last renewal, by the database's clock. */
  readonly since: number;
}

export interface LeaseWatch {
  /** Stops sampling; the leases taken while another process still held them. */
  stop(): Promise<string[]>;
}

export const watchLeases = (pool: pg.Pool): LeaseWatch => {
  const held = new Map<string, Held>();
  const twice: string[] = [];
  let watching = true;
  const sample = async () => {
    const { rows: clock } = await pool.query<{ at: string }>(
      `select (extract(epoch from clock_timestamp()) * 1000)::text as at`,
    );
    const at = Number(clock[0]!.at);
    for (const table of TABLES) {
      const { rows } = await pool.query<{ row: string; lease_id: string; until: string }>(table.query);
      const seen = new Set<string>();
      for (const row of rows) {
        const key = `${table.name} ${row.row}`;
        seen.add(key);
        const before = held.get(key);
        if (before && before.leaseId !== row.lease_id && at - before.since < table.leaseMs - SLACK_MS)
          twice.push(`${key}: taken ${Math.round(at - before.since)} ms into a lease of ${table.leaseMs} ms`);
        if (!before || before.leaseId !== row.lease_id || before.until !== row.until)
          held.set(key, { leaseId: row.lease_id, until: row.until, since: at });
      }
      // Released (sent, recorded, finished): the next claim of the row is a fresh one.
      for (const key of held.keys()) if (key.startsWith(`${table.name} `) && !seen.has(key)) held.delete(key);
    }
  };
  const loop = (async () => {
    while (watching) {
      await sample().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
    }
  })();
  return {
    stop: async () => {
      watching = false;
      await loop;
      return twice;
    },
  };
};
