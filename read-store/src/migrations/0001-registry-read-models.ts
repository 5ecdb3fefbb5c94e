import { type Kysely, sql } from 'kysely';

// Farmers, farms, their fields and linked organizations, and the projection checkpoints. Columns the
// events always carry are NOT NULL so a projection bug shows up as an error rather than a half row.
export const registryReadModels = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createTable('farmers')
      .addColumn('farmer_id', 'text', (column) => column.primaryKey())
      .addColumn('subject', 'text', (column) => column.notNull().unique())
      .addColumn('platform_farmer_id', 'text', (column) => column.notNull().unique())
      .addColumn('first_name', 'text', (column) => column.notNull())
      .addColumn('last_name', 'text', (column) => column.notNull())
      .addColumn('phone_number', 'text')
      .addColumn('language', 'text')
      .addColumn('upload_channel', 'text')
      .addColumn('whatsapp_number', 'text')
      .addColumn('onboarding_status', 'text', (column) => column.notNull())
      .addColumn('data_consent_given', 'boolean', (column) => column.notNull())
      .addColumn('is_active', 'boolean', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .execute();
    // Shareable codes are looked up case-insensitively.
    await db.schema
      .createIndex('farmers_platform_farmer_id_upper_idx')
      .on('farmers')
      .expression(sql`upper(platform_farmer_id)`)
      .execute();

    await db.schema
      .createTable('farms')
      .addColumn('farm_id', 'text', (column) => column.primaryKey())
      .addColumn('platform_farm_id', 'text', (column) => column.notNull().unique())
      .addColumn('owner_farmer_id', 'text', (column) => column.notNull())
      .addColumn('owner_subject', 'text', (column) => column.notNull())
      .addColumn('registered_by_org_id', 'text')
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('has_irrigation', 'boolean', (column) => column.notNull())
      .addColumn('farm_type', 'text')
      .addColumn('farm_size', 'text')
      .addColumn('tenure_type', 'text')
      .addColumn('irrigation_type', 'text')
      .addColumn('water_source', 'text')
      .addColumn('common_grown_crops', 'jsonb', (column) =>
        column.check(sql`jsonb_typeof(common_grown_crops) = 'array'`),
      )
      .addColumn('soil_type', 'text')
      .addColumn('currency', 'text')
      .addColumn('location', 'text')
      .addColumn('country', 'text')
      .addColumn('is_active', 'boolean', (column) => column.notNull())
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
      .addColumn('stream_revision', 'integer', (column) => column.notNull())
      .execute();
    await db.schema.createIndex('farms_owner_farmer_id_idx').on('farms').column('owner_farmer_id').execute();
    await db.schema
      .createIndex('farms_platform_farm_id_upper_idx')
      .on('farms')
      .expression(sql`upper(platform_farm_id)`)
      .execute();

    await db.schema
      .createTable('farm_fields')
      .addColumn('farm_id', 'text', (column) => column.notNull())
      .addColumn('field_id', 'text', (column) => column.notNull())
      .addColumn('name', 'text', (column) => column.notNull())
      .addColumn('area_ha', 'double precision', (column) => column.notNull())
      .addColumn('lat', 'double precision', (column) => column.notNull())
      .addColumn('lon', 'double precision', (column) => column.notNull())
      .addColumn('crop_type', 'text')
      .addColumn('created_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('farm_fields_pkey', ['farm_id', 'field_id'])
      .execute();

    await db.schema
      .createTable('farm_organizations')
      .addColumn('farm_id', 'text', (column) => column.notNull())
      .addColumn('organization_id', 'text', (column) => column.notNull())
      .addColumn('relationship', 'text', (column) => column.notNull())
      .addColumn('linked_at', 'timestamptz', (column) => column.notNull())
      .addPrimaryKeyConstraint('farm_organizations_pkey', ['farm_id', 'organization_id'])
      .execute();

    // numeric(20,0) rather than bigint: KurrentDB positions are unsigned 64-bit and may exceed bigint's range.
    await db.schema
      .createTable('projection_checkpoints')
      .addColumn('name', 'text', (column) => column.primaryKey())
      .addColumn('commit_position', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('prepare_position', 'numeric(20, 0)', (column) => column.notNull())
      .addColumn('updated_at', 'timestamptz', (column) => column.notNull())
      .execute();
  },
};
