import type { ClimatologyPeriod, ClimatologyStat } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../columns';

/** A climatology asked for (INDEX-DATA §3), written by the command API when it answers 202: the job's
 *  inputs. Its run is the monitor's row (`climatology_runs`); a request without one is queued. */
export interface ClimatologyRequestsTable {
  job_id: string;
  source_id: string;
  name: string;
  organization_id: string;
  year_from: number;
  year_to: number;
  period: ColumnType<ClimatologyPeriod, string, string>;
  stat: ClimatologyStat;
  min_years: number;
  requested_by: string;
  requested_at: Timestamp;
}

export interface ClimatologyRequestTables {
  climatology_requests: ClimatologyRequestsTable;
}
