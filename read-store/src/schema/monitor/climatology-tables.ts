import type { ClimatologyLocation, ClimatologyPeriod, ClimatologyStat } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../columns';
import type { LeasedRunColumns } from './leased-run-columns';

/** The run of a requested climatology, then the version it made once succeeded. */
export interface ClimatologyRunsTable extends LeasedRunColumns {
  version: number | null;
}

/** A version of a climatology (INDEX-DATA §3): immutable once written, by the monitor that computed it. */
export interface ClimatologiesTable {
  source_id: string;
  name: string;
  version: number;
  digest: string;
  organization_id: string;
  year_from: number;
  year_to: number;
  period: ColumnType<ClimatologyPeriod, string, string>;
  stat: ClimatologyStat;
  min_years: number;
  /** Readings counted with their latest revision recorded by this instant: the job's start. */
  readings_as_of: Timestamp;
  computed_at: Timestamp;
  job_id: string;
}

/** One location's normals of a version, every period of its year in one document. */
export interface ClimatologyNormalsTable {
  source_id: string;
  name: string;
  version: number;
  location: string;
  periods: ColumnType<ClimatologyLocation['periods'], string, string>;
}

export interface ClimatologyTables {
  climatology_runs: ClimatologyRunsTable;
  climatologies: ClimatologiesTable;
  climatology_normals: ClimatologyNormalsTable;
}
