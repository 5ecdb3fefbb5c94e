import { decodeEvent, isOneOf } from '@cropcover/application';
import type { FarmEvent } from '@cropcover/contracts';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { FarmFieldsTable, FarmOrganizationsTable, FarmsTable, ReadModels } from '@cropcover/read-store';
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Projection } from '../projection';
import { anyOf, recordsetOf } from './batch-parameters';

/** A farms row as the projection works on it and writes it: crops as an array (jsonb). */
type FarmRow = Omit<Insertable<FarmsTable>, 'common_grown_crops'> & { common_grown_crops: string[] | null };
type FieldRow = Insertable<FarmFieldsTable>;
type OrganizationRow = Insertable<FarmOrganizationsTable>;
type RevisedFarmEvent = FarmEvent & { readonly revision: number };

const HANDLED = new Set<FarmEvent['type']>([
  'FarmRegistered',
  'FarmUpdated',
  'FarmDeactivated',
  'FieldRegistered',
  'FarmLinkedToOrganization',
]);

const decode = (event: RecordedEvent<FarmEvent['type']>): RevisedFarmEvent => ({
  ...decodeEvent(event),
  revision: event.revision,
});

const loadRows = async (trx: Transaction<ReadModels>, farmIds: readonly string[]): Promise<Map<string, FarmRow>> => {
  const selected: Selectable<FarmsTable>[] = await trx
    .selectFrom('farms')
    .selectAll()
    .where('farm_id', '=', anyOf(farmIds))
    .execute();
  return new Map(selected.map((row) => [row.farm_id, row]));
};

/** The farm row after the event, or undefined when the event is already reflected (a replay). */
const evolve = (row: FarmRow | undefined, event: RevisedFarmEvent): FarmRow | undefined => {
  if (event.type === 'FarmRegistered') {
    if (row) return undefined;
    const { created_at, ...farm } = event.data;
    return { ...farm, is_active: true, created_at, updated_at: created_at, stream_revision: event.revision };
  }
  if (!row || row.stream_revision >= event.revision) return undefined;
  const revision = { stream_revision: event.revision };
  switch (event.type) {
    case 'FarmUpdated':
      // Omitted attributes are absent from `changes` and stay; null clears.
      return { ...row, ...event.data.changes, updated_at: event.data.updated_at, ...revision };
    case 'FarmDeactivated':
      // The row stays, inactive: issued policies still show the farm, and its owner may still read it.
      return { ...row, is_active: false, updated_at: event.data.deactivated_at, ...revision };
    case 'FieldRegistered':
    case 'FarmLinkedToOrganization':
      // Neither moves the farm's updated_at (its lost-update version); the row has seen the revision.
      return { ...row, ...revision };
  }
};

const fieldRow = (event: RevisedFarmEvent): FieldRow | undefined => {
  if (event.type !== 'FieldRegistered') return undefined;
  const { farm_id, field_id, name, area_ha, location, crop_type, registered_at } = event.data;
  return {
    farm_id,
    field_id,
    name,
    area_ha,
    lat: location.lat,
    lon: location.lon,
    crop_type,
    created_at: registered_at,
  };
};

const organizationRow = (event: RevisedFarmEvent): OrganizationRow | undefined =>
  event.type === 'FarmLinkedToOrganization' ? event.data : undefined;

const upsertFarms = async (trx: Transaction<ReadModels>, rows: readonly FarmRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await trx
    .insertInto('farms')
    .expression(recordsetOf('farms', rows))
    .onConflict((conflict) =>
      conflict
        .column('farm_id')
        .doUpdateSet((eb) => ({
          platform_farm_id: eb.ref('excluded.platform_farm_id'),
          owner_farmer_id: eb.ref('excluded.owner_farmer_id'),
          owner_subject: eb.ref('excluded.owner_subject'),
          registered_by_org_id: eb.ref('excluded.registered_by_org_id'),
          name: eb.ref('excluded.name'),
          has_irrigation: eb.ref('excluded.has_irrigation'),
          farm_type: eb.ref('excluded.farm_type'),
          farm_size: eb.ref('excluded.farm_size'),
          tenure_type: eb.ref('excluded.tenure_type'),
          irrigation_type: eb.ref('excluded.irrigation_type'),
          water_source: eb.ref('excluded.water_source'),
          common_grown_crops: eb.ref('excluded.common_grown_crops'),
          soil_type: eb.ref('excluded.soil_type'),
          currency: eb.ref('excluded.currency'),
          location: eb.ref('excluded.location'),
          country: eb.ref('excluded.country'),
          is_active: eb.ref('excluded.is_active'),
          created_at: eb.ref('excluded.created_at'),
          updated_at: eb.ref('excluded.updated_at'),
          stream_revision: eb.ref('excluded.stream_revision'),
        }))
        // Never let an older view of the row overwrite a newer one.
        .where('farms.stream_revision', '<', (eb) => eb.ref('excluded.stream_revision')),
    )
    .execute();
};

const insertFields = async (trx: Transaction<ReadModels>, rows: readonly FieldRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await trx
    .insertInto('farm_fields')
    .expression(recordsetOf('farm_fields', rows))
    .onConflict((conflict) => conflict.columns(['farm_id', 'field_id']).doNothing())
    .execute();
};

/** A farm is linked to an organization once; a second link (or a replay) keeps the first linked_at. */
const insertOrganizations = async (trx: Transaction<ReadModels>, rows: readonly OrganizationRow[]): Promise<void> => {
  if (rows.length === 0) return;
  await trx
    .insertInto('farm_organizations')
    .expression(recordsetOf('farm_organizations', rows))
    .onConflict((conflict) => conflict.columns(['farm_id', 'organization_id']).doNothing())
    .execute();
};

/** Farms (`farms`), their fields (`farm_fields`) and linked organizations (`farm_organizations`), from the
 *  `farm-<id>` streams. Reads the farms a batch touches, applies its events to them in memory (skipping
 *  those at or below a row's stream_revision), writes back each changed farm once and inserts the new
 *  fields and links. */
export const farmsProjection: Projection = {
  name: 'farms',
  tables: ['farms', 'farm_fields', 'farm_organizations'],
  apply: async (trx, events) => {
    const farmEvents = events.filter(isOneOf(HANDLED)).map(decode);
    if (farmEvents.length === 0) return;
    const rows = await loadRows(trx, [...new Set(farmEvents.map((event) => event.data.farm_id))]);
    const changed = new Map<string, FarmRow>();
    const fields: FieldRow[] = [];
    const organizations: OrganizationRow[] = [];
    for (const event of farmEvents) {
      const field = fieldRow(event);
      if (field) fields.push(field);
      const organization = organizationRow(event);
      if (organization) organizations.push(organization);
      const next = evolve(rows.get(event.data.farm_id), event);
      if (!next) continue;
      rows.set(next.farm_id, next);
      changed.set(next.farm_id, next);
    }
    await upsertFarms(trx, [...changed.values()]);
    await insertFields(trx, fields);
    await insertOrganizations(trx, organizations);
  },
};
