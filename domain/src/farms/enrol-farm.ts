import { isDeepStrictEqual } from 'node:util';
import type { AccessPurpose, ConsentMethod, FarmAttributes, FarmEvent } from '@cropcover/contracts';
import { DomainError } from '../domain-error';
import { alreadyEnrolled } from '../farmers/enrol-farmer';
import type { Farm, FarmField } from './farm';

export interface EnrolledField {
  readonly fieldId: string;
  readonly name: string;
  readonly areaHa: number;
  readonly location: { readonly lat: number; readonly lon: number };
  readonly cropType: string | null;
}

/** How the farmer consented to the organization's access, as the field agent recorded it. */
export interface RecordedConsent {
  readonly method: ConsentMethod;
  readonly recordedAt: Date;
  readonly purposes: readonly AccessPurpose[];
  readonly evidenceRef: string | null;
}

export interface EnrolFarm {
  readonly farmId: string;
  readonly platformFarmId: string;
  readonly ownerFarmerId: string;
  readonly organizationId: string;
  readonly agentSubject: string;
  readonly attributes: FarmAttributes;
  readonly fields: readonly EnrolledField[];
  readonly consent: RecordedConsent;
  readonly now: Date;
}

const sameFields = (held: readonly FarmField[], asked: readonly EnrolledField[]): boolean =>
  held.length === asked.length &&
  held.every(
    (field, index) =>
      field.fieldId === asked[index]!.fieldId &&
      field.name === asked[index]!.name &&
      field.areaHa === asked[index]!.areaHa &&
      isDeepStrictEqual(field.location, asked[index]!.location) &&
      field.cropType === asked[index]!.cropType,
  );

/** The farm a field agent enrols with a farmer: registered by its organization and owned by the enrolled
 *  profile (no login until the farmer claims it), its fields, and the organization's grant for the
 *  purposes the farmer consented to, with the evidence of that consent (SPEC §6). Consent cannot be
 *  recorded as given later than now. The same enrolment again records nothing. */
export const enrolFarm = (command: EnrolFarm, state: Farm): FarmEvent[] => {
  if (command.consent.recordedAt.getTime() > command.now.getTime()) {
    throw new DomainError('rejected', 'consent_in_future', 'consent cannot be recorded as given in the future', [
      { path: 'consent.recorded_at', message: 'must not be later than now' },
    ]);
  }
  const consent = {
    method: command.consent.method,
    recorded_at: command.consent.recordedAt.toISOString(),
    evidence_ref: command.consent.evidenceRef,
  };
  if (state.status === 'registered') {
    const grant = state.organizations.find((candidate) => candidate.organization_id === command.organizationId);
    const same =
      state.ownerFarmerId === command.ownerFarmerId &&
      isDeepStrictEqual(state.attributes, command.attributes) &&
      sameFields(state.fields, command.fields) &&
      grant?.origin === 'assisted_onboarding' &&
      isDeepStrictEqual(grant.purposes, command.consent.purposes) &&
      isDeepStrictEqual(grant.consent, consent);
    if (!same) throw alreadyEnrolled('farm, fields or consent');
    return [];
  }
  const now = command.now.toISOString();
  return [
    {
      type: 'FarmRegistered',
      data: {
        farm_id: command.farmId,
        platform_farm_id: command.platformFarmId,
        owner_farmer_id: command.ownerFarmerId,
        owner_subject: null,
        registered_by_org_id: command.organizationId,
        ...command.attributes,
        created_at: now,
      },
    },
    ...command.fields.map(
      (field): FarmEvent => ({
        type: 'FieldRegistered',
        data: {
          farm_id: command.farmId,
          field_id: field.fieldId,
          name: field.name,
          area_ha: field.areaHa,
          location: { lat: field.location.lat, lon: field.location.lon },
          crop_type: field.cropType,
          registered_at: now,
        },
      }),
    ),
    {
      type: 'FarmAccessGranted',
      data: {
        farm_id: command.farmId,
        organization_id: command.organizationId,
        purposes: [...command.consent.purposes],
        expires_on: null,
        origin: 'assisted_onboarding',
        granted_by: command.agentSubject,
        granted_at: now,
        consent,
      },
    },
  ];
};
