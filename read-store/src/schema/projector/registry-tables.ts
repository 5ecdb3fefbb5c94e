import type { ColumnType } from 'kysely';
import type { NullableCalendarDateColumn } from '../../calendar-date-column';
import type { NullableJsonStringArray, Timestamp } from '../../columns';

// The farm registry as the query API reads it, projected from the `farmer-<id>` and `farm-<id>` streams.
// Column names follow the API's JSON field names so rows map onto responses without renaming.

export interface FarmersTable {
  farmer_id: string;
  /** null for a profile a field agent enrolled, until the farmer claims it. */
  subject: string | null;
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
  /** null while the owner is a farmer enrolled by a field agent who has not claimed the profile. */
  owner_subject: string | null;
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

/** The farmer's unrevoked access grants (SPEC §6), live or expired; `relationship` is the first purpose. */
export interface FarmOrganizationsTable {
  farm_id: string;
  organization_id: string;
  relationship: string;
  linked_at: Timestamp;
  /** jsonb array of purposes; goes in as JSON text, as `common_grown_crops` does. */
  purposes: ColumnType<string[], string, string>;
  origin: string;
  expires_on: NullableCalendarDateColumn;
}

export interface RegistryTables {
  farmers: FarmersTable;
  farms: FarmsTable;
  farm_fields: FarmFieldsTable;
  farm_organizations: FarmOrganizationsTable;
}
