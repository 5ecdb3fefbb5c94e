import type { UnitPolygon } from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../columns';

/** A GeoJSON polygon kept as jsonb: it goes in as JSON text and comes back parsed. */
export type JsonPolygon = ColumnType<UnitPolygon, string, string>;

/** The unit areas of each source (INDEX-DATA §2.4), projected from `index_source_units-<source_id>`. */
export interface IndexSourceUnitsTable {
  source_id: string;
  unit_id: string;
  name: string;
  polygon: JsonPolygon;
  registered_at: Timestamp;
}

export interface UnitAreaTables {
  index_source_units: IndexSourceUnitsTable;
}
