import type { Peril, ReinsuranceEvent } from '@cropcover/contracts';
import type { Zone } from '../programmes/accumulation-zone';
import { type CatClock, catClockOf, eventOfKey, hoursEventKey, seasonEventKey, withinHoursClause } from './cat-event';
import { ledgerEntries } from './ledger-entries';
import {
  evolveReinsuranceLedger,
  lossKey,
  type PeriodBook,
  periodHolding,
  periodKey,
  type ReinsuranceLedger,
} from './reinsurance-ledger';

// The movements of a programme's gross book the cession ledger follows. Each carries the level now — a
// policy's premium, a cover's loss — and the revision of the policy's stream it was read at, so a replay
// of an older movement is stale and records nothing, and the same movement twice records nothing the
// second time. Each records the movement of the period's book, then every treaty's entries.

interface Movement {
  readonly programmeId: string;
  /** The id of the policy event behind it: a PolicyIssued, a PolicyLapsed, a PayoutApproved … */
  readonly sourceEvent: string;
  readonly policyId: string;
  readonly policyRevision: number;
  /** The UTC date the policy was issued: which treaty period covers it. */
  readonly issuedOn: string;
  readonly now: Date;
}

export interface RecordPremium extends Movement {
  /** The policy's premium now: what it was issued at, 0 once it lapsed (premium not paid). */
  readonly premiumMinor: number;
}

export interface RecordLoss extends Movement {
  readonly peril: Peril;
  /** The zone the cover reads. */
  readonly zone: Zone;
  /** What the cover's loss is now: what it was paid, or what it is due when an overpayment found less. */
  readonly lossMinor: number;
  /** When the loss happened (the breach's date), for the hours clause. */
  readonly occurredAt: string;
  /** The season the cover belongs to (its window's year), for events by zone and season. */
  readonly season: string;
}

/** What every record of a movement says: where it is, what caused it, and the revision it was read at. */
const movementOf = (command: Movement, book: PeriodBook) => ({
  programme_id: command.programmeId,
  period: book.period,
  source_event: command.sourceEvent,
  recorded_at: command.now.toISOString(),
  policy_id: command.policyId,
  policy_revision: command.policyRevision,
});

const isStale = (level: { readonly policyRevision: number } | undefined, revision: number) =>
  level !== undefined && level.policyRevision >= revision;

export const recordPremium = (command: RecordPremium, ledger: ReinsuranceLedger): ReinsuranceEvent[] => {
  const book = periodHolding(ledger, command.issuedOn);
  if (book === undefined) return [];
  const before = book.premiums.get(command.policyId);
  if (isStale(before, command.policyRevision) || (before?.minor ?? 0) === command.premiumMinor) return [];
  const gross = command.premiumMinor - (before?.minor ?? 0);
  const recorded: ReinsuranceEvent = {
    type: 'SubjectPremiumRecorded',
    data: {
      ...movementOf(command, book),
      premium_minor: command.premiumMinor,
      gross_minor: gross,
      cumulative_gross_minor: book.grossPremiumMinor + gross,
    },
  };
  return withEntries(ledger, recorded, book, command, null, null);
};

/** The event a new loss of the zone joins: its season's, or the hours event it falls in (else a new one
 *  starting with it). */
const catEventFor = (book: PeriodBook, command: RecordLoss, clock: CatClock) => {
  if (clock === 'season') {
    const key = seasonEventKey(command.zone, command.season);
    return { key, starts_at: book.events.get(key)?.startsAt ?? command.occurredAt };
  }
  const open = book.events
    .valueSeq()
    .filter((event) => {
      const { zone, clock: eventClock } = eventOfKey(event.key);
      return (
        eventClock === 'hours' &&
        zone.source_id === command.zone.source_id &&
        zone.location === command.zone.location &&
        withinHoursClause(event.startsAt, command.occurredAt)
      );
    })
    .minBy((event) => event.startsAt);
  return open === undefined
    ? { key: hoursEventKey(command.zone, command.occurredAt), starts_at: command.occurredAt }
    : { key: open.key, starts_at: open.startsAt };
};

export const recordLoss = (command: RecordLoss, ledger: ReinsuranceLedger): ReinsuranceEvent[] => {
  const book = periodHolding(ledger, command.issuedOn);
  if (book === undefined) return [];
  const before = book.losses.get(lossKey(command.policyId, command.peril));
  if (isStale(before, command.policyRevision) || (before?.minor ?? 0) === command.lossMinor) return [];
  const gross = command.lossMinor - (before?.minor ?? 0);
  // A cover's loss stays in the event of its first: a deeper breach of the same cover is the same loss.
  const catEvent =
    before === undefined
      ? catEventFor(book, command, catClockOf(command.peril))
      : { key: before.eventKey, starts_at: book.events.get(before.eventKey)!.startsAt };
  const recorded: ReinsuranceEvent = {
    type: 'SubjectLossRecorded',
    data: {
      ...movementOf(command, book),
      peril: command.peril,
      source_id: command.zone.source_id,
      location: command.zone.location,
      cat_event: catEvent,
      loss_minor: command.lossMinor,
      gross_minor: gross,
      cumulative_gross_minor: book.grossLossMinor + gross,
    },
  };
  return withEntries(ledger, recorded, book, command, command.zone, command.peril);
};

const withEntries = (
  ledger: ReinsuranceLedger,
  recorded: ReinsuranceEvent,
  book: PeriodBook,
  movement: Movement,
  zone: Zone | null,
  peril: Peril | null,
): ReinsuranceEvent[] => {
  const after = evolveReinsuranceLedger(ledger, recorded);
  const moved = after.periods.get(periodKey(book.period))!;
  return [
    recorded,
    ...ledgerEntries(after, moved, {
      programmeId: movement.programmeId,
      sourceEvent: movement.sourceEvent,
      policyId: movement.policyId,
      zone,
      peril,
      now: movement.now,
    }),
  ];
};
