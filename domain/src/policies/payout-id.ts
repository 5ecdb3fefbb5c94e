import type { Peril } from '@cropcover/contracts';
import { v5 as uuidv5 } from 'uuid';

// A payout id derived from its evaluation and peril: deciding again after a concurrency conflict, or
// replaying the decision, names the same payout.
const PAYOUT_NAMESPACE = 'a3c5e0d2-8f4b-4f61-9b7e-1d2c3b4a5f60';

export const payoutIdFor = (evaluationId: string, peril: Peril): string =>
  uuidv5(`${evaluationId}:${peril}`, PAYOUT_NAMESPACE);
