import type { IndexReading } from '@cropcover/contracts';
import type { ReadModels } from '@cropcover/read-store';
import { sql, type Transaction } from 'kysely';

export interface RecordedReadings {
  /** Keys the field had no reading for. */
  readonly inserted: number;
  /** Readings whose value or source changed; the earlier one is kept as a revision. */
  readonly updated: number;
}

/** Field keys as lock names: JSON keeps ids containing any separator apart. */
const fieldKeys = (readings: readonly IndexReading[]): string[] =>
  [...new Set(readings.map((reading) => JSON.stringify([reading.farm_id, reading.field_id])))].sort();

/**
 * Upserts readings by (farm, field, index, date) in the caller's transaction: a new key is revision 1;
 * a different value or source replaces the reading as the next revision and moves the old one to
 * `index_reading_revisions`; a reading re-sent unchanged is left as it is and counted nowhere.
 * The readings travel as arrays in one statement, so 10,000 of them cost one round trip.
 */
export const recordIndexReadings = async (
  trx: Transaction<ReadModels>,
  readings: readonly IndexReading[],
  recordedAt: Date,
): Promise<RecordedReadings> => {
  if (readings.length === 0) return { inserted: 0, updated: 0 };
  // Writers of the same field take turns (locks in sorted order cannot deadlock): the statement below
  // then sees every earlier commit, so a concurrent first write of a key is kept as a revision too.
  await sql`
    select pg_advisory_xact_lock(hashtext('cropcover.index_readings'), hashtext(field_key))
    from unnest(${fieldKeys(readings)}::text[]) as field_key`.execute(trx);
  const { rows } = await sql<RecordedReadings>`
    with incoming as (
      select *
      from unnest(
        ${readings.map((reading) => reading.farm_id)}::text[],
        ${readings.map((reading) => reading.field_id)}::text[],
        ${readings.map((reading) => reading.index)}::text[],
        ${readings.map((reading) => reading.date)}::date[],
        ${readings.map((reading) => reading.value)}::double precision[],
        ${readings.map((reading) => reading.source ?? null)}::text[]
      ) as incoming (farm_id, field_id, "index", "date", "value", source)
    ),
    replaced as (
      insert into index_reading_revisions
        (farm_id, field_id, "index", "date", revision, "value", source, recorded_at, replaced_at)
      select existing.farm_id, existing.field_id, existing."index", existing."date", existing.revision,
             existing."value", existing.source, existing.recorded_at, ${recordedAt}
      from index_readings existing
      join incoming using (farm_id, field_id, "index", "date")
      where (existing."value", existing.source) is distinct from (incoming."value", incoming.source)
    ),
    written as (
      insert into index_readings (farm_id, field_id, "index", "date", "value", source, revision, recorded_at)
      select farm_id, field_id, "index", "date", "value", source, 1, ${recordedAt} from incoming
      on conflict (farm_id, field_id, "index", "date") do update
        set "value" = excluded."value",
            source = excluded.source,
            revision = index_readings.revision + 1,
            recorded_at = excluded.recorded_at
        where (index_readings."value", index_readings.source) is distinct from (excluded."value", excluded.source)
      returning revision
    )
    select count(*) filter (where revision = 1)::integer as inserted,
           count(*) filter (where revision > 1)::integer as updated
    from written`.execute(trx);
  return rows[0]!;
};
