import { FarmerRegistration, FarmerRegistrationRequest } from '@cropcover/contracts';
import { farmerIdForEnrolment, farmIdForEnrolment, fieldIdForEnrolment, visibleOrganizations } from '@cropcover/domain';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { newResourceId } from '../../idempotency/resource-id';
import { awaitReadModels } from '../../read-your-writes';
import { enrolFarmerWithFarm } from '../../registry/enrol-farmer';
import { attributesOf } from '../../registry/farm-attributes';
import { farmResponse } from '../../registry/farm-response';
import { farmerResponse } from '../../registry/farmer-response';
import { fieldResponse } from '../../registry/field-response';

/** Assisted onboarding (SPEC §6): a field agent enrols a farmer without a login of their own, with a farm,
 *  its fields and the farmer's consent, for the agent's organization. */
export const registerFarmerRoute = commandRoute('POST /farms/registrations', {
  summary: 'Enrol a farmer with a farm, its fields and their consent (field agent)',
  description:
    'The profile is held for the farmer until they claim it (POST /farms/farmers/claim); the farm is ' +
    "registered by the agent's organization, which is granted access for the consented purposes, the consent " +
    'evidence kept in the events. Idempotent on (organization, phone_number): the same enrolment again records ' +
    'nothing (200), the same farmer with other details is 409.',
  roles: ['field_agent'],
  request: { body: FarmerRegistrationRequest },
  success: {
    status: 201,
    schema: FarmerRegistration,
    description: 'Enrolled',
    unchanged: { status: 200, description: 'This enrolment was recorded before: it, nothing recorded' },
  },
  problems: {
    409: {
      description: `farmer_already_enrolled: the organization enrolled this phone with other details; ${KEPT_CHANGING.description}`,
      codes: ['farmer_already_enrolled', ...KEPT_CHANGING.codes],
    },
    422: { description: 'consent_in_future: consent recorded as given later than now', codes: ['consent_in_future'] },
  },
}).handle(async ({ deps, body, organizationId, req, res, answerUnchanged }) => {
  const context = commandContextOf(req, deps.clock.now());
  const phone = body.farmer.phone_number ?? null;
  // With a phone, the organization's one profile of that farmer; without, a new one (a keyed retry's own).
  const farmerId = phone === null ? newResourceId(res) : farmerIdForEnrolment(organizationId, phone);
  const farmId = farmIdForEnrolment(farmerId);
  const outcome = await enrolFarmerWithFarm(deps.eventStore, context, {
    farmerId,
    farmId,
    organizationId,
    profile: {
      first_name: body.farmer.first_name,
      last_name: body.farmer.last_name,
      phone_number: phone,
      language: body.farmer.language ?? null,
      upload_channel: body.farmer.upload_channel,
    },
    attributes: attributesOf(body.farm),
    fields: (body.fields ?? []).map((field, index) => ({
      fieldId: field.field_id ?? fieldIdForEnrolment(farmId, index),
      name: field.name,
      areaHa: field.area_ha,
      location: field.location,
      cropType: field.crop_type ?? null,
    })),
    consent: {
      method: body.consent.method,
      recordedAt: new Date(body.consent.recorded_at),
      purposes: body.consent.purposes,
      evidenceRef: body.consent.evidence_ref ?? null,
    },
  });
  if (outcome.position === undefined) answerUnchanged();
  else await awaitReadModels(deps.readYourWrites, res, outcome.position);
  const { farmer, farm } = outcome;
  const whole = farmResponse(farm, farmer);
  res.location(`/farms/${farmId}`);
  return {
    farmer: farmerResponse(farmer),
    // Once the farmer has claimed the profile, they may have granted others: the agent sees its own entry.
    farm: { ...whole, organizations: visibleOrganizations(context.actor, farm, whole.organizations) },
    fields: farm.fields.map((field) => fieldResponse(farmId, field)),
  };
});
