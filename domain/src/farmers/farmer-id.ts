import { v5 as uuidv5 } from 'uuid';

// A user has at most one farmer profile. Deriving the farmer id from the token subject makes the
// stream name known before the profile exists, so "create if absent" is an append expecting no stream.
const FARMER_NAMESPACE = '6f1d7c2e-5b0a-4c39-9d55-2a7e0f3b8c41';

export const farmerIdForSubject = (subject: string): string => uuidv5(subject, FARMER_NAMESPACE);

// An enrolment names its profile, farm and unnamed fields after the organization and the farmer's phone,
// so the same farmer enrolled again by the organization lands on the same streams (SPEC §6: idempotent on
// organization and phone), and a retry of a keyed enrolment without a phone on the ones its first run made.
const ENROLMENT_NAMESPACE = 'b3a1e6d0-2f4c-4c8e-8a57-91d2c0e4f6a9';

export const farmerIdForEnrolment = (organizationId: string, phoneNumber: string): string =>
  uuidv5(JSON.stringify(['farmer', organizationId, phoneNumber]), ENROLMENT_NAMESPACE);

export const farmIdForEnrolment = (farmerId: string): string =>
  uuidv5(JSON.stringify(['farm', farmerId]), ENROLMENT_NAMESPACE);

export const fieldIdForEnrolment = (farmId: string, index: number): string =>
  uuidv5(JSON.stringify(['field', farmId, index]), ENROLMENT_NAMESPACE);
