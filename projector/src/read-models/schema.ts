import type { ColumnType } from 'kysely';
import type { IdempotencyKeysTable } from './idempotency-tables';
import type { IndexReadingsTables } from './index-readings-tables';
import type { PoliciesTable, PolicyCountsTable, PolicyEvaluationsTable, PolicyPayoutsTable } from './policy-tables';
import type { WebhookTables } from './webhook-tables';

// The read models as the query API sees them. Column names follow the API's JSON field names so rows map
// onto responses without renaming. Timestamps come back as Date (node-postgres parses timestamptz) and go
// in as ISO strings, exactly as the events carry them.

export type Timestamp = ColumnType<Date, Date | string, Date | string>;

/** Nullable jsonb array of strings. It goes in as JSON text: node-postgres would send a JS array as a
 *  PostgreSQL array literal, which jsonb rejects. */
export type NullableJsonStringArray = ColumnType<string[] | null, string | null, string | null>;

/** numeric(20,0): holds any unsigned 64-bit log position; node-postgres returns numeric as a string. */
export type PositionColumn = ColumnType<string, string, string>;

export interface FarmersTable {
  farmer_id: string;
  subject: string;
  platform_farmer_id: string;
  first_name: string;
  last_name: string;
  phone_number: string | null;
  language: string | null;
  upload_channel: string | null;
  whatsapp_number: string | null;
  onboarding_status: string;
  data_consent_given: boolean;
  is_active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Revision of the last event of `farmer-<id>` applied to the row; guards against applying one twice. */
  stream_revision: number;
}

export interface FarmsTable {
  farm_id: string;
  platform_farm_id: string;
  owner_farmer_id: string;
  owner_subject: string;
  registered_by_org_id: string | null;
  name: string;
  has_irrigation: boolean;
  farm_type: string | null;
  farm_size: string | null;
  tenure_type: string | null;
  irrigation_type: string | null;
  water_source: string | null;
  common_grown_crops: NullableJsonStringArray;
  soil_type: string | null;
  currency: string | null;
  location: string | null;
  country: string | null;
  is_active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** Revision of the last event of `farm-<id>` applied (fields included); guards against applying one twice. */
  stream_revision: number;
}

export interface FarmFieldsTable {
  farm_id: string;
  field_id: string;
  name: string;
  area_ha: number;
  lat: number;
  lon: number;
  crop_type: string | null;
  created_at: Timestamp;
}

export interface FarmOrganizationsTable {
  farm_id: string;
  organization_id: string;
  relationship: string;
  linked_at: Timestamp;
}

export interface ProjectionCheckpointsTable {
  name: string;
  commit_position: PositionColumn;
  prepare_position: PositionColumn;
  updated_at: Timestamp;
}

export interface ReadModels extends IndexReadingsTables, WebhookTables {
  farmers: FarmersTable;
  farms: FarmsTable;
  farm_fields: FarmFieldsTable;
  farm_organizations: FarmOrganizationsTable;
  projection_checkpoints: ProjectionCheckpointsTable;
  policies: PoliciesTable;
  policy_evaluations: PolicyEvaluationsTable;
  policy_payouts: PolicyPayoutsTable;
  policy_counts: PolicyCountsTable;
  idempotency_keys: IdempotencyKeysTable;
}

/** A table the projector owns; a projection names the ones it writes so a rebuild can empty them. */
export type ReadModelTable = Exclude<keyof ReadModels, 'projection_checkpoints'>;
