import { decodeEvent, isOneOf } from '@cropcover/application';
import { ERASED_TEXT, type FarmEvent } from '@cropcover/contracts';
import type { RecordedEvent } from '@cropcover/eventstore';
import type { FarmFieldsTable, FarmOrganizationsTable, FarmsTable, ReadModels } from '@cropcover/read-store';
import type { Insertable, Selectable, Transaction } from 'kysely';
import type { Projection } from '../projection';
import { anyOf, recordsetOf } from './batch-parameters';

/** A farms row as the projection works on it and writes it: crops as an array (jsonb). */
type FarmRow = Omit<Insertable<FarmsTable>, 'common_grown_crops'> & { common_grown_crops: string[] | null };
type FieldRow = Insertable<FarmFieldsTable>;
/** A grant row as the projection writes it: purposes as an array (jsonb). */
type OrganizationRow = Omit<Insertable<FarmOrganizationsTable>, 'purposes'> & { purposes: string[] };
/** What a batch does to one (farm, organization): its last event decides. */
type GrantChange =
  | { readonly kind: 'grant' | 'legacy_link'; readonly row: OrganizationRow }
  | { readonly kind: 'revoke'; readonly farm_id: string; readonly organization_id: string };
type RevisedFarmEvent = FarmEvent & { readonly revision: number };

const HANDLED = new Set<FarmEvent['type']>([
  'FarmRegistered',
  'FarmUpdated',
  'FarmDeactivated',
  'FieldRegistered',
  'FarmLinkedToOrganization',
  'FarmAccessGranted',
  'FarmAccessRevoked',
  'FarmClaimed',
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
    case 'FarmClaimed':
      // The owner's login now manages the farm; the farm itself is unchanged, so is its updated_at.
      return { ...row, owner_subject: event.data.owner_subject, ...revision };
    case 'FieldRegistered':
    case 'FarmLinkedToOrganization':
    case 'FarmAccessGranted':
    case 'FarmAccessRevoked':
      // None moves the farm's updated_at (its lost-update version); the row has seen the revision.
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

const grantChange = (event: RevisedFarmEvent): GrantChange | undefined => {
  switch (event.type) {
    case 'FarmLinkedToOrganization': {
      // A link made by issuing, before grants: read as an insurance grant (migration 0022 did the same).
      const { farm_id, organization_id, linked_at } = event.data;
      const row = { farm_id, organization_id, relationship: 'insurance', linked_at, purposes: ['insurance'] };
      return { kind: 'legacy_link', row: { ...row, origin: 'policy_issued', expires_on: null } };
    }
    case 'FarmAccessGranted': {
      const { farm_id, organization_id, purposes, expires_on, origin, granted_at } = event.data;
      const row = { farm_id, organization_id, relationship: purposes[0]!, linked_at: granted_at, purposes };
      return { kind: 'grant', row: { ...row, origin, expires_on } };
    }
    case 'FarmAccessRevoked':
      return { kind: 'revoke', farm_id: event.data.farm_id, organization_id: event.data.organization_id };
    default:
      return undefined;
  }
};

/** Folds a change into the batch's pending one for its (farm, organization), as the aggregate would: a
 *  legacy link adds a grant only where none is held. */
const foldGrantChange = (pending: GrantChange | undefined, change: GrantChange): GrantChange => {
  if (change.kind !== 'legacy_link' || pending === undefined) return change;
  return pending.kind === 'revoke' ? { kind: 'grant', row: change.row } : pending;
};

const keyOfChange = (change: GrantChange): string =>
  'row' in change
    ? JSON.stringify([change.row.farm_id, change.row.organization_id])
    : JSON.stringify([change.farm_id, change.organization_id]);

/** Writes each (farm, organization)'s last change: revoked grants deleted, grants upserted, legacy links
 *  inserted only where no grant is held. */
const writeGrantChanges = async (trx: Transaction<ReadModels>, changes: readonly GrantChange[]): Promise<void> => {
  for (const change of changes.filter((candidate) => candidate.kind === 'revoke')) {
    await trx
      .deleteFrom('farm_organizations')
      .where('farm_id', '=', change.farm_id)
      .where('organization_id', '=', change.organization_id)
      .execute();
  }
  const rowsOf = (kind: GrantChange['kind']) =>
    changes.flatMap((change) => (change.kind === kind && 'row' in change ? [change.row] : []));
  const granted = rowsOf('grant');
  if (granted.length > 0)
    await trx
      .insertInto('farm_organizations')
      .expression(recordsetOf('farm_organizations', granted))
      .onConflict((conflict) =>
        conflict.columns(['farm_id', 'organization_id']).doUpdateSet((eb) => ({
          relationship: eb.ref('excluded.relationship'),
          linked_at: eb.ref('excluded.linked_at'),
          purposes: eb.ref('excluded.purposes'),
          origin: eb.ref('excluded.origin'),
          expires_on: eb.ref('excluded.expires_on'),
        })),
      )
      .execute();
  const linked = rowsOf('legacy_link');
  if (linked.length > 0)
    await trx
      .insertInto('farm_organizations')
      .expression(recordsetOf('farm_organizations', linked))
      .onConflict((conflict) => conflict.columns(['farm_id', 'organization_id']).doNothing())
      .execute();
};

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

/** Farms (`farms`), their fields (`farm_fields`) and access grants (`farm_organizations`), from the
 *  `farm-<id>` streams. Reads the farms a batch touches, applies its events to them in memory (skipping
 *  those at or below a row's stream_revision), writes back each changed farm once, inserts the new
 *  fields and writes each grant's last change. */
export const farmsProjection: Projection = {
  name: 'farms',
  tables: ['farms', 'farm_fields', 'farm_organizations'],
  apply: async (trx, events) => {
    await applyFarmEvents(trx, events);
    await scrubErasedOwners(trx, events);
  },
};

/** A farmer erased (SPEC §6): their farms' names and locations read as erased. The events read so far
 *  were opened with the key erasure destroyed; those read from now on show the placeholders already. */
const scrubErasedOwners = async (trx: Transaction<ReadModels>, events: readonly RecordedEvent[]): Promise<void> => {
  const erased = events.filter(isOneOf(ERASURES)).map((event) => decodeEvent(event).data.farmer_id);
  if (erased.length === 0) return;
  await trx
    .updateTable('farms')
    .set({ name: ERASED_TEXT, location: null })
    .where('owner_farmer_id', 'in', erased)
    .execute();
};

const ERASURES = new Set(['FarmerErased'] as const);

const applyFarmEvents = async (trx: Transaction<ReadModels>, events: readonly RecordedEvent[]): Promise<void> => {
  const farmEvents = events.filter(isOneOf(HANDLED)).map(decode);
  if (farmEvents.length === 0) return;
  const rows = await loadRows(trx, [...new Set(farmEvents.map((event) => event.data.farm_id))]);
  const changed = new Map<string, FarmRow>();
  const fields: FieldRow[] = [];
  const grants = new Map<string, GrantChange>();
  for (const event of farmEvents) {
    const field = fieldRow(event);
    if (field) fields.push(field);
    const next = evolve(rows.get(event.data.farm_id), event);
    if (!next) continue;
    rows.set(next.farm_id, next);
    changed.set(next.farm_id, next);
    // Only once the farm row has taken the event: a replayed revoke or grant must not undo a later one.
    const change = grantChange(event);
    if (change) grants.set(keyOfChange(change), foldGrantChange(grants.get(keyOfChange(change)), change));
  }
  await upsertFarms(trx, [...changed.values()]);
  await insertFields(trx, fields);
  await writeGrantChanges(trx, [...grants.values()]);
};
