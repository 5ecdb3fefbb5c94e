import type { ColumnType, Generated } from 'kysely';
import type { CalendarDateColumn } from '../../calendar-date-column';
import type { Timestamp } from '../../columns';
import type { MinorUnitsColumn } from './policy-tables';

// Programmes and their exposure (SPEC §7), projected from `programme-<id>` and, for what policies were
// paid, from the policy streams. Money is bigint minor units of the programme's currency.

export type NullableMinorUnitsColumn = ColumnType<bigint | null, bigint | number | null, bigint | number | null>;

export interface ProgrammesTable {
  programme_id: string;
  organization_id: string;
  name: string;
  currency: string;
  is_default: boolean;
  aggregate_limit_minor: NullableMinorUnitsColumn;
  zone_default_minor: NullableMinorUnitsColumn;
  /** The policies in force and what they commit: each once. */
  policies: number;
  sum_insured_minor: MinorUnitsColumn;
  premium_minor: MinorUnitsColumn;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Revision of the last event of `programme-<id>` applied: guards every programme table against an
   *  event applied twice. */
  stream_revision: number;
}

/** A zone override (peril '') or a (zone, peril) rule. */
export interface ProgrammeCapacitiesTable {
  programme_id: string;
  source_id: string;
  location: string;
  /** '' for the zone's own capacity; a peril for a (zone, peril) rule. */
  peril: string;
  capacity_minor: MinorUnitsColumn;
}

/** Shared by the zone and (zone, peril) exposure rows. */
interface ExposureColumns {
  programme_id: string;
  source_id: string;
  location: string;
  policies: number;
  sum_insured_minor: MinorUnitsColumn;
  premium_minor: MinorUnitsColumn;
  /** The rule in force: the zone's override, else the default (zones); the pair's rule (pairs); null is
   *  no limit. */
  capacity_minor: NullableMinorUnitsColumn;
  /** sum_insured ÷ capacity, 6 decimals, computed by PostgreSQL; numeric comes back as text. */
  utilisation: Generated<string | null>;
}

/** Per zone: each policy reading it counted once, whatever its perils. */
export type ProgrammeZoneExposureTable = ExposureColumns;

/** Per (zone, peril): each policy with a cover of that peril reading the zone. */
export interface ProgrammeZonePerilExposureTable extends ExposureColumns {
  peril: string;
}

/** Every policy reserved in a programme, in force or released, with what it was paid: the gross side of
 *  the results per period, and how a policy's events find its programme. */
export interface ProgrammePoliciesTable {
  policy_id: string;
  programme_id: string;
  issued_on: CalendarDateColumn;
  sum_insured_minor: MinorUnitsColumn;
  premium_minor: MinorUnitsColumn;
  /** What the policy was paid (PayoutApproved). */
  claims_minor: MinorUnitsColumn;
  /** Revision of the policy's last payout counted in claims_minor. */
  claims_revision: number;
  /** null while in force; else lapsed, closed or issue_failed. */
  released_reason: string | null;
}

export interface ProgrammeTables {
  programmes: ProgrammesTable;
  programme_capacities: ProgrammeCapacitiesTable;
  programme_zone_exposure: ProgrammeZoneExposureTable;
  programme_zone_peril_exposure: ProgrammeZonePerilExposureTable;
  programme_policies: ProgrammePoliciesTable;
}
