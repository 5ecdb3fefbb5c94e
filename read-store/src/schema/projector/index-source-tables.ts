import type {
  Cadence,
  IndexSourceKind,
  ModelDescriptor,
  ProductDescriptor,
  ReadingIndex,
  Sampling,
  SourceUnit,
  Station,
} from '@cropcover/contracts';
import type { ColumnType } from 'kysely';
import type { Timestamp } from '../../columns';

/** jsonb list of stations. It goes in as JSON text: node-postgres would send a JS array as a PostgreSQL
 *  array literal, which jsonb rejects. jsonb keeps a number as the decimal it was written as, so a
 *  station's coordinates come back as the same doubles. */
export type NullableJsonStations = ColumnType<Station[] | null, string | null, string | null>;

/** A jsonb object, sent as JSON text like the stations. */
export type NullableJson<T> = ColumnType<T | null, string | null, string | null>;

/** Registered index sources as every organization reads them, projected from `index_source-<id>`. Column
 *  names follow the API's JSON field names so rows map onto responses without renaming. */
export interface IndexSourcesTable {
  source_id: string;
  organization_id: string;
  name: string;
  index: ReadingIndex;
  kind: IndexSourceKind;
  /** Station sources only. */
  stations: NullableJsonStations;
  radius_km: number | null;
  /** Grid sources only. */
  resolution_deg: number | null;
  /** INDEX-DATA.md §1; null unit: the index name's. */
  unit: SourceUnit | null;
  currency: string | null;
  cadence: Cadence;
  sampling: Sampling;
  product: NullableJson<ProductDescriptor>;
  model: NullableJson<ModelDescriptor>;
  registered_at: Timestamp;
}

export interface IndexSourceTables {
  index_sources: IndexSourcesTable;
}
