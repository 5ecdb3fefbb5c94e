import type { LedgerPeriod, Peril, ReinsuranceEvent } from '@cropcover/contracts';
import type { Zone } from '../programmes/accumulation-zone';
import { applyTreaties, type TreatyOutcome } from './apply-treaties';
import {
  NOTHING_RECORDED,
  type PeriodBook,
  type ReinsuranceLedger,
  subjectOf,
  type TreatyRecord,
  treatiesOf,
} from './reinsurance-ledger';

/** What moved a period's book: the entries name it, and the policy, zone and peril when there is one. */
export interface LedgerSource {
  readonly programmeId: string;
  readonly sourceEvent: string;
  readonly policyId: string | null;
  readonly zone: Zone | null;
  readonly peril: Peril | null;
  readonly now: Date;
}

type Outcome<Type extends TreatyOutcome['type']> = Extract<TreatyOutcome, { type: Type }>;
type EntryCommon = {
  readonly programme_id: string;
  readonly treaty_id: string;
  readonly period: LedgerPeriod;
  readonly source_event: string;
  readonly recorded_at: string;
};

const quotaShareEntries = (
  outcome: Outcome<'quota_share'>,
  recorded: TreatyRecord,
  entry: EntryCommon,
  source: LedgerSource,
): ReinsuranceEvent[] => {
  const entries: ReinsuranceEvent[] = [];
  const { premium, loss } = outcome;
  if (premium.subjectMinor !== recorded.premium.subjectMinor || premium.cededMinor !== recorded.premium.cededMinor) {
    entries.push({
      type: 'PremiumCeded',
      data: {
        ...entry,
        policy_id: source.policyId,
        gross_minor: premium.subjectMinor - recorded.premium.subjectMinor,
        cumulative_gross_minor: premium.subjectMinor,
        ceded_minor: premium.cededMinor - recorded.premium.cededMinor,
        cumulative_ceded_minor: premium.cededMinor,
        ceding_commission_minor: premium.commissionMinor - recorded.premium.commissionMinor,
        cumulative_ceding_commission_minor: premium.commissionMinor,
      },
    });
  }
  if (loss.subjectMinor !== recorded.loss.subjectMinor || loss.cededMinor !== recorded.loss.cededMinor) {
    const gross = loss.subjectMinor - recorded.loss.subjectMinor;
    const ceded = loss.cededMinor - recorded.loss.cededMinor;
    entries.push({
      type: 'CessionRecorded',
      data: {
        ...entry,
        policy_id: source.policyId,
        peril: source.peril,
        source_id: source.zone?.source_id ?? null,
        location: source.zone?.location ?? null,
        gross_minor: gross,
        cumulative_gross_minor: loss.subjectMinor,
        ceded_minor: ceded,
        cumulative_ceded_minor: loss.cededMinor,
        net_minor: gross - ceded,
      },
    });
  }
  return entries;
};

const recovery = (
  entry: EntryCommon,
  catEvent: string | null,
  figures: { subjectMinor: number; attachmentMinor: number; limitMinor: number; recoveryMinor: number },
  before: number,
): ReinsuranceEvent[] =>
  figures.recoveryMinor === before
    ? []
    : [
        {
          type: 'RecoveryRecorded',
          data: {
            ...entry,
            cat_event: catEvent,
            subject_minor: figures.subjectMinor,
            attachment_minor: figures.attachmentMinor,
            limit_minor: figures.limitMinor,
            cumulative_recovery_minor: figures.recoveryMinor,
            delta_minor: figures.recoveryMinor - before,
          },
        },
      ];

const catXlEntries = (outcome: Outcome<'cat_xl'>, recorded: TreatyRecord, entry: EntryCommon): ReinsuranceEvent[] =>
  outcome.events.flatMap((event) =>
    recovery(
      entry,
      event.key,
      {
        subjectMinor: event.subjectMinor,
        attachmentMinor: outcome.retentionMinor,
        limitMinor: outcome.limitMinor,
        recoveryMinor: event.recoveryMinor,
      },
      recorded.eventRecoveries.get(event.key) ?? 0,
    ),
  );

/**
 * The entries that bring every treaty of the period from what the ledger recorded to the treaties applied
 * to the book as it now is: a premium cession and a loss cession per quota share whose figures moved, a
 * recovery per stop-loss and per cat XL event whose recovery moved. Cumulative rounding falls out: each
 * entry is the rounded total now less the rounded total recorded, so entries add up to the total.
 */
export const ledgerEntries = (
  ledger: ReinsuranceLedger,
  book: PeriodBook,
  source: LedgerSource,
): ReinsuranceEvent[] => {
  const treaties = treatiesOf(ledger, book.period);
  const { outcomes } = applyTreaties(
    treaties.map((treaty) => treaty.terms),
    subjectOf(book),
  );
  return treaties.flatMap((treaty, at) => {
    const outcome = outcomes[at]!;
    const recorded = ledger.records.get(treaty.treatyId) ?? NOTHING_RECORDED;
    const entry: EntryCommon = {
      programme_id: source.programmeId,
      treaty_id: treaty.treatyId,
      period: book.period,
      source_event: source.sourceEvent,
      recorded_at: source.now.toISOString(),
    };
    if (outcome.type === 'quota_share') return quotaShareEntries(outcome, recorded, entry, source);
    if (outcome.type === 'stop_loss') return recovery(entry, null, outcome, recorded.recoveryMinor);
    return catXlEntries(outcome, recorded, entry);
  });
};
