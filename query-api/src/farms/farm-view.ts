import type { AccessPurpose, Farm, FarmerProfile } from '@cropcover/contracts';
import { type Actor, visibleOrganizations } from '@cropcover/domain';
import { calendarDateOf, type ReadModels } from '@cropcover/read-store';
import type { Kysely, Selectable } from 'kysely';
import { isoTimestamp } from '../timestamps';

type FarmRow = Selectable<ReadModels['farms']>;
type FarmerRow = Selectable<ReadModels['farmers']>;

export const farmerView = (row: FarmerRow): FarmerProfile => ({
  farmer_id: row.farmer_id,
  platform_farmer_id: row.platform_farmer_id,
  first_name: row.first_name,
  last_name: row.last_name,
  phone_number: row.phone_number,
  language: row.language,
  upload_channel: row.upload_channel as FarmerProfile['upload_channel'],
  whatsapp_number: row.whatsapp_number,
  onboarding_status: row.onboarding_status as FarmerProfile['onboarding_status'],
  data_consent_given: row.data_consent_given,
  is_active: row.is_active,
  created_at: isoTimestamp(row.created_at),
  updated_at: isoTimestamp(row.updated_at),
});

/** Farms with their owner and the organizations granted access, in the order given: three queries,
 *  whatever the count. The owner and admins see every grant, anyone else only its own organization's. */
export const farmViews = async (db: Kysely<ReadModels>, farms: readonly FarmRow[], actor: Actor): Promise<Farm[]> => {
  if (farms.length === 0) return [];
  const farmIds = farms.map((farm) => farm.farm_id);
  const ownerIds = [...new Set(farms.map((farm) => farm.owner_farmer_id))];
  const [owners, links] = await Promise.all([
    db.selectFrom('farmers').selectAll().where('farmer_id', 'in', ownerIds).execute(),
    db
      .selectFrom('farm_organizations')
      .select((eb) => [
        'farm_id',
        'organization_id',
        'relationship',
        'linked_at',
        calendarDateOf(eb.ref('expires_on')).as('expires_on'),
      ])
      .where('farm_id', 'in', farmIds)
      .orderBy('linked_at')
      .orderBy('organization_id')
      .execute(),
  ]);
  const ownerById = new Map(owners.map((owner) => [owner.farmer_id, farmerView(owner)]));
  return farms.map((row) => ({
    farm_id: row.farm_id,
    platform_farm_id: row.platform_farm_id,
    name: row.name,
    owner_id: row.owner_farmer_id,
    registered_by_org_id: row.registered_by_org_id,
    has_irrigation: row.has_irrigation,
    farm_type: row.farm_type as Farm['farm_type'],
    farm_size: row.farm_size as Farm['farm_size'],
    tenure_type: row.tenure_type as Farm['tenure_type'],
    irrigation_type: row.irrigation_type as Farm['irrigation_type'],
    water_source: row.water_source as Farm['water_source'],
    common_grown_crops: row.common_grown_crops as string[] | null,
    soil_type: row.soil_type as Farm['soil_type'],
    currency: row.currency,
    location: row.location,
    country: row.country,
    is_active: row.is_active,
    created_at: isoTimestamp(row.created_at),
    updated_at: isoTimestamp(row.updated_at),
    farmer: ownerById.get(row.owner_farmer_id)!,
    organizations: visibleOrganizations(
      actor,
      { ownerSubject: row.owner_subject },
      links.filter((link) => link.farm_id === row.farm_id),
    ).map((link) => ({
      organization_id: link.organization_id,
      relationship: link.relationship as AccessPurpose,
      linked_at: isoTimestamp(link.linked_at),
      ...(link.expires_on === null ? {} : { expires_on: link.expires_on }),
    })),
  }));
};
