import { type Kysely, sql } from 'kysely';

// policy_monitor_days took ~1.2 kB a policy-day, most of it each peril's field names and a hex digest in
// jsonb (docs/benchmarks.md, "Monitor season"). Each peril becomes a positional JSON array and its digest
// 32 bytes in `digests` (queries/monitored-days.ts); rows kept already are rewritten the same way.
export const policyMonitorDaysNarrow = {
  async up(db: Kysely<unknown>): Promise<void> {
    await sql`alter table policy_monitor_days add column kept json, add column digests bytea[]`.execute(db);
    await sql`
      update policy_monitor_days set
        kept = coalesce((
          select json_agg(case when p ? 'skipped_reason' then json_build_array(p->'peril', p->'skipped_reason')
            else json_build_array(p->'peril', p->'observed_value', p->'coverage'->'days_with_reading',
              p->'coverage'->'days_in_window', p->'breached', p->'amount_due_minor', p->'readings_from',
              p->'readings_to') end order by i)
          from jsonb_array_elements(perils) with ordinality as x(p, i)), '[]'),
        digests = coalesce((
          select array_agg(decode(substr(p->>'digest', 8), 'hex') order by i)
          from jsonb_array_elements(perils) with ordinality as x(p, i)), '{}')`.execute(db);
    await sql`alter table policy_monitor_days drop column perils`.execute(db);
    await sql`alter table policy_monitor_days rename column kept to perils`.execute(db);
    await sql`alter table policy_monitor_days alter column perils set not null, alter column digests set not null`.execute(
      db,
    );
  },
};
