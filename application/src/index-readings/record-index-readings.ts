import type { ReadingIndex } from '@cropcover/contracts';
import type { ReadModels } from '@cropcover/read-store';
import { sql, type Transaction } from 'kysely';

/** A reading as stored: of one source at one location (station, grid cell or field). */
export interface SourceReading {
  readonly sourceId: string;
  readonly location: string;
  readonly index: ReadingIndex;
  readonly date: string;
  readonly value: number;
  /** The provider's free-text label. */
  readonly note: string | null;
  /** From a file (INDEX-DATA.md §4): the release's label and the file's hex SHA-256. */
  readonly label?: string | null;
  readonly fileSha256?: string | null;
}

export interface RecordedReadings {
  /** Keys the location had no reading for. */
  readonly inserted: number;
  /** Readings whose value or note changed; the earlier one is kept as a revision. */
  readonly updated: number;
}

/** The distinct series of a batch, as parallel arrays of source ids and locations. */
const seriesOf = (readings: readonly SourceReading[]): { sources: string[]; locations: string[] } => {
  const seen = new Map<string, { source: string; location: string }>();
  for (const { sourceId, location } of readings) {
    seen.set(JSON.stringify([sourceId, location]), { source: sourceId, location });
  }
  return {
    sources: [...seen.values()].map((series) => series.source),
    locations: [...seen.values()].map((series) => series.location),
  };
};

/** Lock buckets per source: a file of 10,000 cells takes at most this many locks, not one per cell, which
 *  PostgreSQL's shared lock table (max_locks_per_transaction × connections) cannot hold. */
const LOCK_BUCKETS = 64;

/**
 * Upserts readings by (source, location, index, date) in the caller's transaction: a new key is
 * revision 1; a different value or note replaces the reading as the next revision and moves the old one to
 * `index_reading_revisions`; a reading re-sent unchanged is left as it is and counted nowhere.
 * The readings travel as arrays in one statement, so 10,000 of them cost one round trip.
 */
export const recordIndexReadings = async (
  trx: Transaction<ReadModels>,
  readings: readonly SourceReading[],
  recordedAt: Date,
  recordedBy: string,
): Promise<RecordedReadings> => {
  if (readings.length === 0) return { inserted: 0, updated: 0 };
  // Writers of the same series take turns (locks in sorted order cannot deadlock): the statement below
  // then sees every earlier commit, so a concurrent first write of a key is kept as a revision too. A
  // series locks its source's bucket, so the locks a batch takes stay few whatever its size.
  const { sources, locations } = seriesOf(readings);
  await sql`
    select pg_advisory_xact_lock(source_key, bucket)
    from (
      select distinct hashtext('cropcover.index_readings/' || source_id) as source_key,
             abs(hashtext(location) % ${LOCK_BUCKETS}) as bucket
      from unnest(${sources}::text[], ${locations}::text[]) as series (source_id, location)
      order by 1, 2
    ) as buckets`.execute(trx);
  const { rows } = await sql<RecordedReadings>`
    with incoming as (
      select *
      from unnest(
        ${readings.map((reading) => reading.sourceId)}::text[],
        ${readings.map((reading) => reading.location)}::text[],
        ${readings.map((reading) => reading.index)}::text[],
        ${readings.map((reading) => reading.date)}::date[],
        ${readings.map((reading) => reading.value)}::double precision[],
        ${readings.map((reading) => reading.note)}::text[],
        ${readings.map((reading) => reading.label ?? null)}::text[],
        ${readings.map((reading) => reading.fileSha256 ?? null)}::text[]
      ) as incoming (source_id, location, "index", "date", "value", note, label, file_sha256)
    ),
    replaced as (
      insert into index_reading_revisions
        (source_id, location, "index", "date", revision, "value", note, recorded_at, recorded_by, label, file_sha256,
         replaced_at)
      select existing.source_id, existing.location, existing."index", existing."date", existing.revision,
             existing."value", existing.note, existing.recorded_at, existing.recorded_by, existing.label,
             existing.file_sha256, ${recordedAt}
      from index_readings existing
      join incoming using (source_id, location, "index", "date")
      where (existing."value", existing.note) is distinct from (incoming."value", incoming.note)
    ),
    written as (
      insert into index_readings
        (source_id, location, "index", "date", "value", note, revision, recorded_at, recorded_by, label, file_sha256)
      select source_id, location, "index", "date", "value", note, 1, ${recordedAt}, ${recordedBy}, label, file_sha256
      from incoming
      on conflict (source_id, location, "index", "date") do update
        set "value" = excluded."value",
            note = excluded.note,
            label = excluded.label,
            file_sha256 = excluded.file_sha256,
            revision = index_readings.revision + 1,
            recorded_at = excluded.recorded_at,
            recorded_by = excluded.recorded_by
        where (index_readings."value", index_readings.note) is distinct from (excluded."value", excluded.note)
      returning revision
    )
    select count(*) filter (where revision = 1)::integer as inserted,
           count(*) filter (where revision > 1)::integer as updated
    from written`.execute(trx);
  return rows[0]!;
};
