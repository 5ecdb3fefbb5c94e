import { v5 as uuidv5 } from 'uuid';

// A user has at most one farmer profile. Deriving the farmer id from the token subject makes the
// stream name known before the profile exists, so "create if absent" is an append expecting no stream.
const FARMER_NAMESPACE = '6f1d7c2e-5b0a-4c39-9d55-2a7e0f3b8c41';

export const farmerIdForSubject = (subject: string): string => uuidv5(subject, FARMER_NAMESPACE);
