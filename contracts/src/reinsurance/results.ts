import { DateTime } from '../common';
import { CalendarDate } from '../insurance/calendar-date';
import { PageNumber, PageSize } from '../insurance/pagination';
import { Peril } from '../insurance/peril';
import { z } from '../zod';
import { TreatyType } from './treaty';

// Gross, ceded and net per programme and period, and the cession ledger (SPEC §7 "Reinsurance"). Amounts
// in major units.

/** A treaty period as `from..to`, or a calendar year `YYYY` (its 1 January .. 31 December). */
export const PeriodQuery = z
  .string()
  .regex(/^(\d{4}|\d{4}-\d{2}-\d{2}\.\.\d{4}-\d{2}-\d{2})$/, { message: 'must be YYYY or YYYY-MM-DD..YYYY-MM-DD' });

export const ProgrammeResultsQuery = z.strictObject({ period: PeriodQuery.optional() });
export type ProgrammeResultsQuery = z.infer<typeof ProgrammeResultsQuery>;

export const TreatyResult = z
  .object({
    treaty_id: z.string(),
    type: TreatyType,
    ceded_premium: z.number(),
    ceding_commission: z.number(),
    /** What the treaty pays back: a quota share's ceded claims, a stop-loss's or cat XL's recoveries. */
    recoveries: z.number(),
  })
  .openapi('TreatyResult');
export type TreatyResult = z.infer<typeof TreatyResult>;

export const ProgrammeResults = z
  .object({
    programme_id: z.string(),
    currency: z.string(),
    period: z.object({ from: CalendarDate, to: CalendarDate }),
    /** Premium of the policies issued in the period, less what lapsed. */
    gross_premium: z.number(),
    /** What those policies were paid. */
    gross_claims: z.number(),
    treaties: z.array(TreatyResult),
    /** gross_premium − the ceded premiums. */
    net_premium: z.number(),
    /** gross_claims − the recoveries. */
    net_claims: z.number(),
  })
  .openapi('ProgrammeResults');
export type ProgrammeResults = z.infer<typeof ProgrammeResults>;

export const LedgerEntryKind = z.enum(['premium', 'claim', 'recovery']).openapi('LedgerEntryKind');
export type LedgerEntryKind = z.infer<typeof LedgerEntryKind>;

export const CessionEntry = z
  .object({
    entry_id: z.string(),
    treaty_id: z.string(),
    kind: LedgerEntryKind,
    source_event: z.string(),
    policy_id: z.string().nullable(),
    zone: z.object({ source_id: z.string(), location: z.string() }).nullable(),
    peril: Peril.nullable(),
    cat_event: z.string().nullable(),
    /** The movement of what the treaty applies to; 0 for a recovery, whose subject is cumulative_gross. */
    gross: z.number(),
    cumulative_gross: z.number(),
    ceded: z.number(),
    cumulative_ceded: z.number(),
    /** gross − ceded (for a recovery: − its change). */
    net: z.number(),
    recorded_at: DateTime,
  })
  .openapi('CessionEntry');
export type CessionEntry = z.infer<typeof CessionEntry>;

export const CessionLedgerQuery = z.strictObject({
  treaty_id: z.string().min(1).max(100).optional(),
  policy_id: z.string().min(1).max(100).optional(),
  page: PageNumber,
  page_size: PageSize,
});
export type CessionLedgerQuery = z.infer<typeof CessionLedgerQuery>;

export const CessionLedger = z
  .object({
    items: z.array(CessionEntry),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  })
  .openapi('CessionLedger');
export type CessionLedger = z.infer<typeof CessionLedger>;
