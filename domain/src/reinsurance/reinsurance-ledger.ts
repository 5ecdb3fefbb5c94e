import type { LedgerPeriod, ReinsuranceEvent, TreatyTerms } from '@cropcover/contracts';
import { Map as PersistentMap } from 'immutable';
import { type Aggregate, streamName } from '../aggregate';
import type { EventLoss, SubjectBook } from './apply-treaties';

export interface BoundTreaty {
  readonly treatyId: string;
  readonly period: LedgerPeriod;
  readonly inuranceOrder: number;
  readonly terms: TreatyTerms;
  readonly reinsurerOrganizationId: string | null;
  readonly boundAt: string;
}

/** A level as the ledger last took it from a policy's stream, and the revision it was taken at: a
 *  movement from an earlier revision (a replay) is stale and moves nothing. */
interface Level {
  readonly minor: number;
  readonly policyRevision: number;
}

interface LossLevel extends Level {
  readonly eventKey: string;
}

/** The book of one treaty period: every policy issued in it, as its treaties see it. */
export interface PeriodBook {
  readonly period: LedgerPeriod;
  /** policy id → its premium (0 once lapsed). */
  readonly premiums: PersistentMap<string, Level>;
  /** JSON [policy id, peril] → what the cover's loss is. */
  readonly losses: PersistentMap<string, LossLevel>;
  /** event key → the event: when it started and its gross loss. */
  readonly events: PersistentMap<string, EventLoss>;
  readonly grossPremiumMinor: number;
  readonly grossLossMinor: number;
}

/** What the ledger has recorded of one treaty, cumulatively: what the next entry is the difference from. */
export interface TreatyRecord {
  readonly premium: { readonly subjectMinor: number; readonly cededMinor: number; readonly commissionMinor: number };
  readonly loss: { readonly subjectMinor: number; readonly cededMinor: number };
  /** A stop-loss's recovery. */
  readonly recoveryMinor: number;
  /** A cat XL's recovery per event. */
  readonly eventRecoveries: PersistentMap<string, number>;
}

export interface ReinsuranceLedger {
  /** Treaties in the order bound: the order they apply in. */
  readonly treaties: readonly BoundTreaty[];
  /** JSON [from, to] → the period's book. Periods are equal or apart, never overlapping. */
  readonly periods: PersistentMap<string, PeriodBook>;
  readonly records: PersistentMap<string, TreatyRecord>;
}

export const initialReinsuranceLedger: ReinsuranceLedger = {
  treaties: [],
  periods: PersistentMap(),
  records: PersistentMap(),
};

export const periodKey = (period: LedgerPeriod): string => JSON.stringify([period.from, period.to]);

export const lossKey = (policyId: string, peril: string): string => JSON.stringify([policyId, peril]);

export const NOTHING_RECORDED: TreatyRecord = {
  premium: { subjectMinor: 0, cededMinor: 0, commissionMinor: 0 },
  loss: { subjectMinor: 0, cededMinor: 0 },
  recoveryMinor: 0,
  eventRecoveries: PersistentMap(),
};

const emptyBook = (period: LedgerPeriod): PeriodBook => ({
  period,
  premiums: PersistentMap(),
  losses: PersistentMap(),
  events: PersistentMap(),
  grossPremiumMinor: 0,
  grossLossMinor: 0,
});

/** The treaties of a period, in the order they apply. */
export const treatiesOf = (ledger: ReinsuranceLedger, period: LedgerPeriod): BoundTreaty[] =>
  ledger.treaties.filter((treaty) => periodKey(treaty.period) === periodKey(period));

/** The period (of a bound treaty) whose dates hold `date`; undefined when no treaty covers it. */
export const periodHolding = (ledger: ReinsuranceLedger, date: string): PeriodBook | undefined =>
  ledger.periods.find((book) => book.period.from <= date && date <= book.period.to);

export const subjectOf = (book: PeriodBook): SubjectBook => ({
  grossPremiumMinor: book.grossPremiumMinor,
  grossLossMinor: book.grossLossMinor,
  events: [...book.events.values()],
});

const updateBook = (ledger: ReinsuranceLedger, period: LedgerPeriod, change: (book: PeriodBook) => PeriodBook) => ({
  ...ledger,
  periods: ledger.periods.update(periodKey(period), (book) => change(book ?? emptyBook(period))),
});

const updateRecord = (ledger: ReinsuranceLedger, treatyId: string, change: (record: TreatyRecord) => TreatyRecord) => ({
  ...ledger,
  records: ledger.records.update(treatyId, (record) => change(record ?? NOTHING_RECORDED)),
});

export const evolveReinsuranceLedger = (ledger: ReinsuranceLedger, event: ReinsuranceEvent): ReinsuranceLedger => {
  switch (event.type) {
    case 'TreatyBound': {
      const { data } = event;
      const treaty: BoundTreaty = {
        treatyId: data.treaty_id,
        period: data.period,
        inuranceOrder: data.inurance_order,
        terms: data.terms,
        reinsurerOrganizationId: data.reinsurer_organization_id,
        boundAt: data.bound_at,
      };
      return updateBook({ ...ledger, treaties: [...ledger.treaties, treaty] }, data.period, (book) => book);
    }
    case 'SubjectPremiumRecorded': {
      const { data } = event;
      return updateBook(ledger, data.period, (book) => ({
        ...book,
        premiums: book.premiums.set(data.policy_id, {
          minor: data.premium_minor,
          policyRevision: data.policy_revision,
        }),
        grossPremiumMinor: data.cumulative_gross_minor,
      }));
    }
    case 'SubjectLossRecorded': {
      const { data } = event;
      return updateBook(ledger, data.period, (book) => {
        const previous = book.events.get(data.cat_event.key);
        return {
          ...book,
          losses: book.losses.set(lossKey(data.policy_id, data.peril), {
            minor: data.loss_minor,
            policyRevision: data.policy_revision,
            eventKey: data.cat_event.key,
          }),
          events: book.events.set(data.cat_event.key, {
            key: data.cat_event.key,
            startsAt: previous?.startsAt ?? data.cat_event.starts_at,
            lossMinor: (previous?.lossMinor ?? 0) + data.gross_minor,
          }),
          grossLossMinor: data.cumulative_gross_minor,
        };
      });
    }
    case 'PremiumCeded':
      return updateRecord(ledger, event.data.treaty_id, (record) => ({
        ...record,
        premium: {
          subjectMinor: event.data.cumulative_gross_minor,
          cededMinor: event.data.cumulative_ceded_minor,
          commissionMinor: event.data.cumulative_ceding_commission_minor,
        },
      }));
    case 'CessionRecorded':
      return updateRecord(ledger, event.data.treaty_id, (record) => ({
        ...record,
        loss: { subjectMinor: event.data.cumulative_gross_minor, cededMinor: event.data.cumulative_ceded_minor },
      }));
    case 'RecoveryRecorded': {
      const { cat_event: eventKey, cumulative_recovery_minor: recovery } = event.data;
      return updateRecord(ledger, event.data.treaty_id, (record) =>
        eventKey === null
          ? { ...record, recoveryMinor: recovery }
          : { ...record, eventRecoveries: record.eventRecoveries.set(eventKey, recovery) },
      );
    }
  }
};

/** `reinsurance-<programme_id>`: the treaties bound to a programme and its cession ledger. */
export const reinsuranceStream = streamName('reinsurance');

export const reinsuranceLedgerAggregate: Aggregate<ReinsuranceLedger, ReinsuranceEvent> = {
  initial: initialReinsuranceLedger,
  evolve: evolveReinsuranceLedger,
};
