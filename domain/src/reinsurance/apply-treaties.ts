import type { TreatyTerms } from '@cropcover/contracts';
import { applyRatio } from './treaty-terms';

// The one application of a period's treaties to its totals, in the order they were bound (SPEC §7: quota
// share first, then stop-loss on the net). The cession ledger records the difference between this on the
// book after a movement and what it recorded before, so its entries add up, to the minor unit, to the
// treaties applied to the totals; the as-if backtest applies it to each past season.

/** A catastrophe event's gross loss, in the order events take an aggregate limit: their start. */
export interface EventLoss {
  readonly key: string;
  readonly startsAt: string;
  readonly lossMinor: number;
}

/** What a period's treaties apply to: its gross premium, its gross loss, and that loss by event. */
export interface SubjectBook {
  readonly grossPremiumMinor: number;
  readonly grossLossMinor: number;
  readonly events: readonly EventLoss[];
}

export type TreatyOutcome =
  | {
      readonly type: 'quota_share';
      /** The premium and loss it applies to: the gross, net of the treaties before it. */
      readonly premium: {
        readonly subjectMinor: number;
        readonly cededMinor: number;
        readonly commissionMinor: number;
      };
      readonly loss: { readonly subjectMinor: number; readonly cededMinor: number };
    }
  | {
      readonly type: 'stop_loss';
      readonly subjectMinor: number;
      readonly attachmentMinor: number;
      readonly limitMinor: number;
      readonly recoveryMinor: number;
    }
  | {
      readonly type: 'cat_xl';
      readonly retentionMinor: number;
      readonly limitMinor: number;
      readonly events: readonly {
        readonly key: string;
        readonly subjectMinor: number;
        readonly recoveryMinor: number;
      }[];
      readonly recoveryMinor: number;
    };

export interface TreatiesApplied {
  readonly outcomes: readonly TreatyOutcome[];
  /** Gross premium less the premium ceded. */
  readonly netPremiumMinor: number;
  /** Gross loss less every cession and recovery. */
  readonly netLossMinor: number;
}

const chronological = (a: EventLoss, b: EventLoss) =>
  a.startsAt === b.startsAt ? (a.key < b.key ? -1 : a.key > b.key ? 1 : 0) : a.startsAt < b.startsAt ? -1 : 1;

/**
 * Each treaty on what the treaties before it left:
 * - quota share: cedes rate × premium and rate × loss (each rounded half-up once, on the total), and
 *   takes its share of each event's loss before a later cat XL sees it;
 * - stop-loss: recovers the loss above the attachment, up to the limit — a ratio of the subject premium,
 *   the gross or the net after the quota shares before it;
 * - cat XL: per event, the loss above the retention up to the limit, events taking the aggregate limit in
 *   chronological order (so a revision of an early event hands what it frees to the later ones). Layers
 *   see each event's loss after quota shares, not after other layers or stop-losses.
 */
export const applyTreaties = (treaties: readonly TreatyTerms[], book: SubjectBook): TreatiesApplied => {
  let premium = book.grossPremiumMinor;
  let loss = book.grossLossMinor;
  let events = [...book.events].sort(chronological).map((event) => ({ key: event.key, lossMinor: event.lossMinor }));
  const quotaShare = (terms: Extract<TreatyTerms, { type: 'quota_share' }>): TreatyOutcome => {
    const cededPremium = applyRatio(premium, terms.cession_rate);
    const cededLoss = applyRatio(loss, terms.cession_rate);
    const outcome: TreatyOutcome = {
      type: 'quota_share',
      premium: {
        subjectMinor: premium,
        cededMinor: cededPremium,
        commissionMinor: applyRatio(cededPremium, terms.ceding_commission),
      },
      loss: { subjectMinor: loss, cededMinor: cededLoss },
    };
    premium -= cededPremium;
    loss -= cededLoss;
    events = events.map((event) => ({
      ...event,
      lossMinor: event.lossMinor - applyRatio(event.lossMinor, terms.cession_rate),
    }));
    return outcome;
  };
  const stopLoss = (terms: Extract<TreatyTerms, { type: 'stop_loss' }>): TreatyOutcome => {
    const amountOf = (level: { ratio: number } | { amount_minor: number }) =>
      'ratio' in level ? applyRatio(premium, level.ratio) : level.amount_minor;
    const attachmentMinor = amountOf(terms.attachment);
    const limitMinor = amountOf(terms.limit);
    const recoveryMinor = Math.min(limitMinor, Math.max(0, loss - attachmentMinor));
    const outcome: TreatyOutcome = {
      type: 'stop_loss',
      subjectMinor: loss,
      attachmentMinor,
      limitMinor,
      recoveryMinor,
    };
    loss -= recoveryMinor;
    return outcome;
  };
  const catXl = (terms: Extract<TreatyTerms, { type: 'cat_xl' }>): TreatyOutcome => {
    let aggregateLeft = terms.aggregate_limit_minor ?? Number.POSITIVE_INFINITY;
    const recovered = events.map((event) => {
      const recoveryMinor = Math.min(
        terms.limit_minor,
        Math.max(0, event.lossMinor - terms.retention_minor),
        aggregateLeft,
      );
      aggregateLeft -= recoveryMinor;
      return { key: event.key, subjectMinor: event.lossMinor, recoveryMinor };
    });
    const recoveryMinor = recovered.reduce((sum, event) => sum + event.recoveryMinor, 0);
    loss -= recoveryMinor;
    return {
      type: 'cat_xl',
      retentionMinor: terms.retention_minor,
      limitMinor: terms.limit_minor,
      events: recovered,
      recoveryMinor,
    };
  };
  const outcomes = treaties.map((terms) =>
    terms.type === 'quota_share' ? quotaShare(terms) : terms.type === 'stop_loss' ? stopLoss(terms) : catXl(terms),
  );
  return { outcomes, netPremiumMinor: premium, netLossMinor: loss };
};
