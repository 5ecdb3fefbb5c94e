import type { TreatyTerms } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { CalendarDateColumn } from '../../calendar-date-column';
import type { Timestamp } from '../../columns';
import type { MinorUnitsColumn } from './policy-tables';

// Treaties and the cession ledger (SPEC §7 "Reinsurance"), projected from `reinsurance-<programme_id>`.

export type TreatyTermsColumn = ColumnType<TreatyTerms, string, string>;

export interface TreatiesTable {
  treaty_id: string;
  programme_id: string;
  organization_id: string;
  reinsurer_organization_id: string | null;
  type: string;
  terms: TreatyTermsColumn;
  period_from: CalendarDateColumn;
  period_to: CalendarDateColumn;
  inurance_order: number;
  bound_at: Timestamp;
  /** Cumulative figures: what the treaty's entries add up to. */
  ceded_premium_minor: MinorUnitsColumn;
  ceding_commission_minor: MinorUnitsColumn;
  /** A quota share's ceded claims, a stop-loss's or cat XL's recoveries. */
  recoveries_minor: MinorUnitsColumn;
  /** Revision of the last event of the programme's reinsurance stream applied to the row. */
  stream_revision: number;
}

/** One entry per treaty per movement: a premium cession, a loss cession, or a recovery. */
export interface ReinsuranceLedgerTable {
  /** The event's id. */
  entry_id: string;
  programme_id: string;
  /** The entry's revision in `reinsurance-<programme_id>`: the ledger's order. */
  stream_revision: number;
  treaty_id: string;
  kind: string;
  source_event: string;
  policy_id: string | null;
  source_id: string | null;
  location: string | null;
  peril: string | null;
  cat_event: string | null;
  gross_minor: MinorUnitsColumn;
  cumulative_gross_minor: MinorUnitsColumn;
  ceded_minor: MinorUnitsColumn;
  cumulative_ceded_minor: MinorUnitsColumn;
  net_minor: MinorUnitsColumn;
  recorded_at: Timestamp;
}

export interface ReinsuranceTables {
  treaties: TreatiesTable;
  reinsurance_ledger: ReinsuranceLedgerTable;
}
