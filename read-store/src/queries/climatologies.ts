import type { ClimatologyLocation, ClimatologyPeriod, ClimatologyStat } from '@cropcover/contracts';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';
import { type LeasedJobTables, succeedLeasedRun } from './leased-jobs';

// Climatology jobs and versions (INDEX-DATA §3): what the command API records when one is asked for,
// what a monitor claims, computes and writes as a new immutable version, and what the query API shows.

export interface ClimatologyRequestRecord {
  readonly job_id: string;
  readonly source_id: string;
  readonly name: string;
  readonly organization_id: string;
  readonly year_from: number;
  readonly year_to: number;
  readonly period: ClimatologyPeriod;
  readonly stat: ClimatologyStat;
  readonly min_years: number;
  readonly requested_by: string;
  readonly requested_at: Date;
}

export interface ClimatologyJobRecord extends ClimatologyRequestRecord {
  /** null while queued. */
  readonly run: {
    readonly status: 'running' | 'succeeded' | 'failed';
    readonly completed_at: Date | null;
    readonly version: number | null;
    readonly error: unknown;
  } | null;
}

/** Records a request; one already recorded under its id (a keyed retry's first run) is left as it is. */
export const recordClimatologyRequest = async (
  db: Kysely<ReadModels>,
  request: ClimatologyRequestRecord,
): Promise<void> => {
  await db
    .insertInto('climatology_requests')
    .values({ ...request, period: JSON.stringify(request.period) })
    .onConflict((conflict) => conflict.column('job_id').doNothing())
    .execute();
};

/** The organization a climatology name belongs to on a source: whoever asked for it first. */
export const climatologyOwner = async (
  db: Kysely<ReadModels>,
  sourceId: string,
  name: string,
): Promise<string | undefined> => {
  const row = await db
    .selectFrom('climatology_requests')
    .select('organization_id')
    .where('source_id', '=', sourceId)
    .where('name', '=', name)
    .orderBy('requested_at')
    .limit(1)
    .executeTakeFirst();
  return row?.organization_id;
};

/** Whether the source holds any reading dated within the years (a window wrapping the year end reaches
 *  into the year after the last). */
export const sourceHasReadingsIn = async (
  db: Kysely<ReadModels>,
  sourceId: string,
  from: string,
  to: string,
): Promise<boolean> => {
  const row = await db
    .selectFrom('index_readings')
    .select('location')
    .where('source_id', '=', sourceId)
    .where(sql<boolean>`"date" between ${from} and ${to}`)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
};

/** The locations of a source with a reading dated within the range recorded by `asOf`, in order. */
export const sourceLocationsAsOf = async (
  db: Kysely<ReadModels>,
  sourceId: string,
  from: string,
  to: string,
  asOf: Date,
): Promise<string[]> => {
  const { rows } = await sql<{ location: string }>`
    select location from (
      select location from index_readings
        where source_id = ${sourceId} and "date" between ${from} and ${to} and recorded_at <= ${asOf}
      union
      select location from index_reading_revisions
        where source_id = ${sourceId} and "date" between ${from} and ${to} and recorded_at <= ${asOf}
    ) as held
    order by location collate "C"`.execute(db);
  return rows.map((row) => row.location);
};

export const loadClimatologyJob = async (
  db: Kysely<ReadModels>,
  sourceId: string,
  name: string,
  jobId: string,
): Promise<ClimatologyJobRecord | undefined> => {
  const row = await db
    .selectFrom('climatology_requests as request')
    .leftJoin('climatology_runs as run', 'run.job_id', 'request.job_id')
    .selectAll('request')
    .select(['run.status', 'run.completed_at', 'run.version', 'run.error'])
    .where('request.job_id', '=', jobId)
    .where('request.source_id', '=', sourceId)
    .where('request.name', '=', name)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { status, completed_at, version, error, ...request } = row;
  return { ...request, run: status === null ? null : { status, completed_at, version, error } };
};

export const climatologyJobs: LeasedJobTables = { requests: 'climatology_requests', runs: 'climatology_runs' };

/** The request of a claimed job, with the instant it started: readings recorded by then are counted. */
export const loadClimatologyRequest = async (
  db: Kysely<ReadModels>,
  jobId: string,
): Promise<ClimatologyRequestRecord & { readonly started_at: Date }> => {
  const { started_at, ...request } = await db
    .selectFrom('climatology_requests as request')
    .innerJoin('climatology_runs as run', 'run.job_id', 'request.job_id')
    .selectAll('request')
    .select('run.started_at')
    .where('request.job_id', '=', jobId)
    .executeTakeFirstOrThrow();
  return { ...request, started_at };
};

/** A computed version, before its number is drawn. */
export interface ComputedClimatology {
  readonly digest: string;
  readonly readings_as_of: Date;
  readonly locations: readonly ClimatologyLocation[];
}

const NORMAL_ROWS_PER_STATEMENT = 1000;

/** Records the next version of the name with every location's normals, in one transaction, if the lease
 *  is still this monitor's. */
export const finishClimatology = async (
  db: Kysely<ReadModels>,
  request: ClimatologyRequestRecord,
  leaseId: string,
  result: ComputedClimatology,
  at: Date,
): Promise<void> => {
  await succeedLeasedRun(db, 'climatology_runs', request.job_id, leaseId, at, async (trx) => {
    // Versions of one name are numbered one after another: a lock on the name keeps two jobs apart.
    await sql`select pg_advisory_xact_lock(hashtext(${`${request.source_id}/${request.name}`}))`.execute(trx);
    const latest = await trx
      .selectFrom('climatologies')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('source_id', '=', request.source_id)
      .where('name', '=', request.name)
      .executeTakeFirst();
    const version = (latest?.version ?? 0) + 1;
    await trx
      .insertInto('climatologies')
      .values({
        source_id: request.source_id,
        name: request.name,
        version,
        digest: result.digest,
        organization_id: request.organization_id,
        year_from: request.year_from,
        year_to: request.year_to,
        period: JSON.stringify(request.period),
        stat: request.stat,
        min_years: request.min_years,
        readings_as_of: result.readings_as_of,
        computed_at: at,
        job_id: request.job_id,
      })
      .execute();
    for (let from = 0; from < result.locations.length; from += NORMAL_ROWS_PER_STATEMENT) {
      await trx
        .insertInto('climatology_normals')
        .values(
          result.locations.slice(from, from + NORMAL_ROWS_PER_STATEMENT).map((location) => ({
            source_id: request.source_id,
            name: request.name,
            version,
            location: location.location,
            periods: JSON.stringify(location.periods),
          })),
        )
        .execute();
    }
    await trx.updateTable('climatology_runs').set({ version }).where('job_id', '=', request.job_id).execute();
  });
};

export interface ClimatologyVersionQuery {
  readonly sourceId: string;
  readonly name: string;
  /** The latest when absent. */
  readonly version?: number;
  readonly location?: string;
  readonly page: number;
  readonly pageSize: number;
}

/** A version with a page of its locations (or the one asked for); undefined when there is no such version. */
export const loadClimatology = async (db: Kysely<ReadModels>, query: ClimatologyVersionQuery) => {
  let header = db
    .selectFrom('climatologies')
    .selectAll()
    .where('source_id', '=', query.sourceId)
    .where('name', '=', query.name);
  header =
    query.version === undefined
      ? header.orderBy('version', 'desc').limit(1)
      : header.where('version', '=', query.version);
  const climatology = await header.executeTakeFirst();
  if (climatology === undefined) return undefined;
  let normals = db
    .selectFrom('climatology_normals')
    .select(['location', 'periods'])
    .where('source_id', '=', query.sourceId)
    .where('name', '=', query.name)
    .where('version', '=', climatology.version);
  if (query.location !== undefined) normals = normals.where('location', '=', query.location);
  const [rows, count] = await Promise.all([
    normals
      .orderBy(sql`location collate "C"`)
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    normals
      .clearSelect()
      .select((eb) => eb.fn.countAll<string>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { climatology, locations: rows as ClimatologyLocation[], total: Number(count.total) };
};
