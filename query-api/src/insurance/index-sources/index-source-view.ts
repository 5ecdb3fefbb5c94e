import type { IndexSource } from '@cropcover/contracts';
import type { IndexSourcesTable } from '@cropcover/read-store';
import type { Selectable } from 'kysely';
import { isoTimestamp } from '../../timestamps';

/** Sources are read by every organization (SPEC §7): an insurer choosing data for a policy, an auditor
 *  checking it, a data provider finding its own. Any role, always with an org_id like every insurance read. */
export const SOURCE_READERS = ['insurer', 'data_provider', 'auditor'] as const;

export const indexSourceView = (row: Selectable<IndexSourcesTable>): IndexSource => ({
  source_id: row.source_id,
  organization_id: row.organization_id,
  name: row.name,
  index: row.index,
  kind: row.kind,
  stations: row.stations,
  radius_km: row.radius_km,
  resolution_deg: row.resolution_deg,
  unit: row.unit,
  currency: row.currency,
  cadence: row.cadence,
  sampling: row.sampling,
  product: row.product,
  model: row.model,
  registered_at: isoTimestamp(row.registered_at),
});
