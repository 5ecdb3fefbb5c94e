import { createHash } from 'node:crypto';
import type { BacktestInputs, Peril, PortfolioBacktestResult, ProgrammeEvent } from '@cropcover/contracts';
import {
  AsIfBook,
  addDays,
  asIfPolicyOf,
  canonicalJson,
  evaluateSeasonCover,
  type IssuedPolicy,
  type Programme,
  periodHolding,
  policyAggregate,
  policyStream,
  portfolioBacktestResult,
  programmeAggregate,
  programmeStream,
  reinsuranceLedgerAggregate,
  reinsuranceStream,
  type SheetCoverTerms,
  treatiesOf,
} from '@cropcover/domain';
import { type BacktestRequestRecord, loadSeriesReadingsBefore } from '@cropcover/read-store';
import type { CommandDeps } from '../command-deps';
import { decodeEvent } from '../decode-event';
import { loadAggregate } from '../handle-command';

// The as-if portfolio backtest of a programme (SPEC §7): the book in force on `as_of` read from the
// programme's own stream, each policy's frozen sheet from its stream, and each zone's readings from the
// read store as they stood then, a batch of series a query, into the domain's AsIfBook — the same cover
// evaluation as a policy's own backtest. Readings are never all held at once: a batch is evaluated and let
// go.

/** Policies loaded side by side: enough to hide the round trips, few enough to leave the pool to others. */
const POLICY_LOADS_AT_ONCE = 16;

/** Series (zone and index) read per query: one round trip for many locations, while a batch's readings
 *  (up to 40 seasons a series) stay a few megabytes; each series is evaluated and let go. */
const SERIES_PER_QUERY = 32;

/** What a job reports while it runs (the worker renews its lease on it). */
export type BacktestProgress = () => Promise<void>;

/** The programme as it stood at the end of `asOf` (its events up to that day), and the revision taken. */
const programmeOn = async (deps: CommandDeps, programmeId: string, asOf: string) => {
  let state: Programme = programmeAggregate.initial;
  let revision: number | null = null;
  for (const recorded of await deps.eventStore.readStream(programmeStream(programmeId))) {
    if (recorded.metadata.occurred_at.slice(0, 10) > asOf) break;
    state = programmeAggregate.evolve(state, decodeEvent(recorded) as ProgrammeEvent);
    revision = recorded.revision;
  }
  return { state, revision };
};

const loadPolicies = async (deps: CommandDeps, policyIds: readonly string[]): Promise<IssuedPolicy[]> => {
  const loaded: IssuedPolicy[] = [];
  for (let at = 0; at < policyIds.length; at += POLICY_LOADS_AT_ONCE) {
    const batch = await Promise.all(
      policyIds
        .slice(at, at + POLICY_LOADS_AT_ONCE)
        .map((policyId) => loadAggregate(deps.eventStore, policyStream(policyId), policyAggregate)),
    );
    for (const policy of batch) if (policy.status !== 'not_issued') loaded.push(policy);
  }
  return loaded;
};

export const computePortfolioBacktest = async (
  deps: CommandDeps,
  request: BacktestRequestRecord,
  progress: BacktestProgress = async () => undefined,
): Promise<PortfolioBacktestResult> => {
  const { state: programme, revision } = await programmeOn(deps, request.programme_id, request.as_of);
  if (programme.status !== 'open')
    throw new RangeError(`programme ${request.programme_id} not open on ${request.as_of}`);
  const policyIds = [...programme.reservations.keys()].sort();
  const perils = (request.perils ?? undefined) as readonly Peril[] | undefined;
  const digest = createHash('sha256');
  digest.update(JSON.stringify([request.programme_id, revision, request.seasons, request.perils]));
  const included: { policyId: string; premiumMinor: number }[] = [];
  const book = (await loadPolicies(deps, policyIds)).flatMap((policy) => {
    const asIf = asIfPolicyOf(policy, perils);
    if (asIf === undefined) return [];
    included.push({
      policyId: asIf.policyId,
      premiumMinor: programme.reservations.get(asIf.policyId)?.premiumMinor ?? 0,
    });
    // What the as-if reads of the policy — its sheet and each cover's frozen terms and data —, canonical:
    // the policy's state read from a snapshot (jsonb) lists its keys in another order than its events.
    const covers = policy.perils.map(({ terms, data }) => [terms, data]);
    digest.update(`\n${canonicalJson([asIf.policyId, asIf.sumInsuredMinor, policy.sheet, covers])}`);
    return [asIf];
  });
  await progress();
  const asIf = new AsIfBook<SheetCoverTerms>(book, request.seasons, evaluateSeasonCover);
  const series = asIf
    .zonesToRead()
    .sort((a, b) => (JSON.stringify([a.zone, a.index]) < JSON.stringify([b.zone, b.index]) ? -1 : 1));
  // The readings as they stood when `as_of` ended, as the book does: a reading revised later is read at
  // the revision it had then, so the job re-run later gives the same figures and digest.
  const standing = new Date(`${addDays(request.as_of, 1)}T00:00:00.000Z`);
  let readings = 0;
  for (let at = 0; at < series.length; at += SERIES_PER_QUERY) {
    const batch = series.slice(at, at + SERIES_PER_QUERY);
    const observed = await loadSeriesReadingsBefore(
      deps.db,
      batch.map(({ zone, index, from, to }) => ({
        sourceId: zone.source_id,
        location: zone.location,
        index,
        from,
        to,
      })),
      standing,
    );
    batch.forEach(({ zone, index }, position) => {
      const zoneReadings = observed[position]!;
      readings += zoneReadings.length;
      digest.update(`\n${JSON.stringify([zone.source_id, zone.location, index])}`);
      for (const reading of zoneReadings) digest.update(`\n${reading.date},${reading.value},${reading.revision}`);
      asIf.readZone(zone, index, zoneReadings);
    });
    await progress();
  }
  const treaties = request.apply_treaties ? await treatiesOn(deps, request.programme_id, request.as_of) : [];
  digest.update(`\n${JSON.stringify(treaties)}`);
  const inputs: BacktestInputs = {
    programme_revision: revision,
    readings,
    digest: `sha256:${digest.digest('hex')}`,
  };
  return portfolioBacktestResult(
    asIf.outcome(),
    { treaties, grossPremiumMinor: included.reduce((total, policy) => total + policy.premiumMinor, 0) },
    programme.currency,
    inputs,
  );
};

/** The treaties of the period holding `asOf`, in the order they apply; none outside every period. */
const treatiesOn = async (deps: CommandDeps, programmeId: string, asOf: string) => {
  const ledger = await loadAggregate(deps.eventStore, reinsuranceStream(programmeId), reinsuranceLedgerAggregate);
  const period = periodHolding(ledger, asOf);
  if (period === undefined) return [];
  return treatiesOf(ledger, period.period)
    .sort((a, b) => a.inuranceOrder - b.inuranceOrder)
    .map((treaty) => treaty.terms);
};
