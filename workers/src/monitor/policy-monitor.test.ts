import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import {
  backtestEvaluation,
  liveEvaluation,
  loadStream,
  recordIndexReadings,
  replayMonitoredDay,
  sharedReadingHistory,
} from '@cropcover/application';
import type { ReadingIndex } from '@cropcover/contracts';
import {
  fieldLocation,
  organizationFieldSourceId,
  POLICY_STATE_VERSION,
  policyAggregate,
  policySnapshotOf,
  policyStream,
  sharedPerilAssessor,
} from '@cropcover/domain';
import type { EventMetadata } from '@cropcover/eventstore';
import { type Projector, readModelProjections, startProjector } from '@cropcover/projector';
import {
  openProjectorTestDatabase,
  type PolicyStory,
  type ProjectorTestDatabase,
  policyStory,
} from '@cropcover/projector/testing';
import { calendarDateOf, monitoredPerilsFromColumns } from '@cropcover/read-store';
import { createKysely, createLogger, createPool, type SettableClock, settableClock } from '@cropcover/runtime';
import { Registry } from 'prom-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MONITOR_SUBJECT, monitorContext } from './monitor-context';
import type { PolicyMonitorDeps } from './monitor-deps';
import { createMonitorMetrics } from './monitor-metrics';
import { monitorPolicy } from './monitor-policy';
import { runMonitorTick } from './monitor-tick';
import { startPolicyMonitor } from './policy-monitor';
import { readPolicySnapshots } from './policy-snapshots';

// The monitor composed from the real pieces: the PostgreSQL event store, the projector keeping the
// policies read model, and the command side's live evaluation, with a clock the tests move.

const ISSUED_AT = '2026-03-01T08:00:00.000Z';
const WAIT = { timeout: 20_000, interval: 25 } as const;

interface World {
  readonly t: ProjectorTestDatabase;
  readonly deps: PolicyMonitorDeps;
  readonly clock: SettableClock;
  readonly logged: string[];
  issue(policyId: string, options?: Partial<Parameters<typeof policyStory>[0]>): Promise<PolicyStory>;
  /** Readings of farm-1/north, posted by org-a (the insurer of every policy here) to its own field source. */
  readings(readings: readonly { index: ReadingIndex; date: string; value: number }[]): Promise<void>;
  tick(deps?: PolicyMonitorDeps): ReturnType<typeof runMonitorTick>;
  /** Waits until the read model holds every event of the policy's stream. */
  projected(policyId: string): Promise<void>;
  events(policyId: string): Promise<{ type: string; data: Record<string, unknown>; metadata: EventMetadata }[]>;
  evaluationIds(policyId: string): Promise<string[]>;
  row(policyId: string): Promise<{ status: string; next_monitoring_date: string | null }>;
}

const worlds: { t: ProjectorTestDatabase; projector: Projector }[] = [];
afterEach(async () => {
  for (const { t, projector } of worlds.splice(0)) {
    await projector.stop();
    await t.close();
  }
});

const openWorld = async (): Promise<World> => {
  const t = await openProjectorTestDatabase('policy_monitor');
  const projector = await startProjector({
    eventStore: t.eventStore,
    db: t.db,
    projections: readModelProjections,
    logger: t.logger,
  });
  worlds.push({ t, projector });
  const clock = settableClock(ISSUED_AT);
  const deps: PolicyMonitorDeps = { eventStore: t.eventStore, db: t.db };
  const logged: string[] = [];
  const logger = createLogger({
    level: 'info',
    destination: new Writable({
      write(chunk, _encoding, done) {
        logged.push(String(chunk));
        done();
      },
    }),
  });
  const metrics = createMonitorMetrics();
  const world: World = {
    t,
    deps,
    clock,
    logged,
    issue: async (policyId, options = {}) => {
      const story = policyStory({
        policyId,
        organizationId: 'org-a',
        perils: ['flood'],
        termStart: '2026-03-01',
        termEnd: '2026-08-31',
        issuedAt: ISSUED_AT,
        ...options,
      });
      await t.eventStore.append(story.streamId, story.takeNew(), 'no_stream');
      await world.projected(policyId);
      return story;
    },
    readings: (readings) =>
      t.db
        .transaction()
        .execute((trx) =>
          recordIndexReadings(
            trx,
            readings.map((reading) => ({
              sourceId: organizationFieldSourceId('org-a'),
              location: fieldLocation('farm-1', 'north'),
              note: null,
              ...reading,
            })),
            clock.now(),
            'provider-a',
          ),
        )
        .then(() => undefined),
    tick: (tickDeps = deps) => runMonitorTick({ deps: tickDeps, clock, logger, metrics }),
    projected: async (policyId) => {
      const revision = (await t.eventStore.readStream(policyStream(policyId))).at(-1)!.revision;
      await vi.waitFor(async () => {
        const row = await t.db
          .selectFrom('policies')
          .select('stream_revision')
          .where('policy_id', '=', policyId)
          .executeTakeFirst();
        expect(row?.stream_revision).toBe(Number(revision));
      }, WAIT);
    },
    events: async (policyId) =>
      (await t.eventStore.readStream(policyStream(policyId))).map((event) => ({
        type: event.type,
        data: event.data as Record<string, unknown>,
        metadata: event.metadata,
      })),
    evaluationIds: async (policyId) =>
      (await world.events(policyId))
        .filter((event) => event.type === 'TriggerEvaluated' || event.type === 'TriggerEvaluationSkipped')
        .map((event) => String(event.data.evaluation_id)),
    row: async (policyId) =>
      t.db
        .selectFrom('policies')
        .select((eb) => ['status', calendarDateOf(eb.ref('next_monitoring_date')).as('next_monitoring_date')])
        .where('policy_id', '=', policyId)
        .executeTakeFirstOrThrow(),
  };
  return world;
};

const FLOOD = [
  { index: 'rainfall_mm', date: '2026-03-01', value: 100 },
  { index: 'rainfall_mm', date: '2026-03-02', value: 120 },
] as const;

describe('policy monitor', () => {
  it('evaluates a policy once on its next monitoring date and pays its flood, as the monitor', async () => {
    const world = await openWorld();
    await world.issue('p-flood');
    await world.readings(FLOOD);

    expect(await world.tick()).toEqual({ evaluated: 0, closed: 0, failed: 0, unchanged: 0 });
    expect(await world.evaluationIds('p-flood')).toEqual([]);

    world.clock.set('2026-03-02T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, closed: 0, failed: 0, unchanged: 0 });
    // The read model may still list it as due: the stream says it was evaluated today.
    expect(await world.tick()).toMatchObject({ evaluated: 0 });

    const events = await world.events('p-flood');
    const recorded = events.slice(1);
    expect(recorded.map((event) => event.type)).toEqual(['TriggerEvaluated', 'TriggerBreached', 'PayoutApproved']);
    expect(recorded.find((event) => event.type === 'PayoutApproved')?.data).toMatchObject({
      amount_minor: 466_667,
      currency: 'KES',
    });
    for (const { metadata } of recorded) {
      expect(metadata).toMatchObject({ actor: MONITOR_SUBJECT, organization_id: 'org-a' });
    }
    await world.projected('p-flood');
    expect(await world.row('p-flood')).toEqual({ status: 'claimed', next_monitoring_date: '2026-03-03' });
  });

  it('evaluates each due policy once when two monitors run their ticks at the same time', async () => {
    const world = await openWorld();
    const ids = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5', 'p-6'];
    for (const id of ids) await world.issue(id);
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');

    // A second instance: its own pool, as another process would have.
    const otherPool = createPool(world.t.url, world.t.logger, { max: 4 });
    try {
      const other: PolicyMonitorDeps = { eventStore: world.deps.eventStore, db: createKysely(otherPool) };
      const ticks = await Promise.all([world.tick(), world.tick(other), world.tick(), world.tick(other)]);
      expect(ticks.reduce((sum, tick) => sum + tick.evaluated, 0)).toBe(ids.length);
      expect(ticks.every((tick) => tick.failed === 0)).toBe(true);
    } finally {
      await otherPool.end();
    }
    for (const id of ids) {
      expect(new Set(await world.evaluationIds(id)).size).toBe(1);
      expect((await world.events(id)).filter((event) => event.type === 'PayoutApproved')).toHaveLength(1);
    }
  });

  it('appends nothing for a day whose conclusion is unchanged though its readings moved, keeps every day in the round table, and records the next change', async () => {
    const world = await openWorld();
    await world.issue('p-quiet-days');
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 0, closed: 0, failed: 0 });
    await world.projected('p-quiet-days');
    const recorded = (await world.events('p-quiet-days')).length;

    // Given a daily feed of dry days, when the monitor runs on each of them, then it evaluates once a
    // day and appends nothing: the readings (and their digest) moved, what the policy is due did not
    for (const day of ['2026-03-03', '2026-03-04']) {
      await world.readings([{ index: 'rainfall_mm', date: day, value: 0 }]);
      world.clock.set(`${day}T00:05:00.000Z`);
      expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 1, closed: 0, failed: 0 });
      expect(await world.tick()).toEqual({ evaluated: 0, unchanged: 0, closed: 0, failed: 0 });
    }
    expect(await world.events('p-quiet-days')).toHaveLength(recorded);

    // And the round table keeps every day, recorded or not, with what it observed and from which readings
    const days = await world.t.db
      .selectFrom('policy_monitor_days')
      .select((eb) => [
        calendarDateOf(eb.ref('checked_on')).as('checked_on'),
        'recorded',
        'stream_revision',
        'perils',
        'digests',
      ])
      .where('policy_id', '=', 'p-quiet-days')
      .orderBy('checked_on')
      .execute();
    expect(
      days.map(({ checked_on, recorded: inLog, stream_revision }) => [checked_on, inLog, stream_revision]),
    ).toEqual([
      ['2026-03-02', true, 0],
      ['2026-03-03', false, recorded - 1],
      ['2026-03-04', false, recorded - 1],
    ]);
    const kept = days.map((day) => monitoredPerilsFromColumns(day.perils, day.digests));
    const digests = kept.map((perils) => (perils[0] as { digest: string }).digest);
    expect(new Set(digests).size).toBe(3);
    expect(kept.map((perils) => perils[0])).toMatchObject(
      Array(3).fill({ peril: 'flood', observed_value: 220, breached: true }),
    );

    // When a deeper flood comes in (a correction of the 4th, at noon), then the next day's evaluation
    // records it and pays the difference
    world.clock.set('2026-03-04T12:00:00.000Z');
    await world.readings([{ index: 'rainfall_mm', date: '2026-03-04', value: 100 }]);
    world.clock.set('2026-03-05T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 0, closed: 0, failed: 0 });
    const payouts = (await world.events('p-quiet-days')).filter((event) => event.type === 'PayoutApproved');
    expect(payouts).toHaveLength(2);

    // When a reading of a day left out of the log is corrected afterwards, then the audit still replays
    // that day from the readings as they stood (the revisions kept) and finds what the round table kept
    await world.readings([{ index: 'rainfall_mm', date: '2026-03-03', value: 2 }]);
    for (const [day, inLog] of [
      ['2026-03-02', true],
      ['2026-03-04', false],
    ] as const) {
      const replay = await replayMonitoredDay(world.deps, 'p-quiet-days', day);
      expect(replay).toMatchObject({ recorded: inLog, matches: true, recordedAsConcluded: true });
      expect(replay?.replayed).toEqual(replay?.kept);
    }
    expect(await replayMonitoredDay(world.deps, 'p-quiet-days', '2026-02-28')).toBeUndefined();
  });

  it('takes the policies of a monitor that died holding their lease once the lease has run out', async () => {
    const world = await openWorld();
    await world.issue('p-orphan');
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    // A monitor claimed it and died before finishing its round.
    await world.t.db
      .insertInto('policy_monitor_rounds')
      .values({ policy_id: 'p-orphan', lease_id: randomUUID(), leased_until: '2026-03-02T00:07:00.000Z' })
      .execute();

    expect(await world.tick()).toEqual({ evaluated: 0, unchanged: 0, closed: 0, failed: 0 });
    world.clock.set('2026-03-02T00:07:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 0, closed: 0, failed: 0 });
    expect(await world.evaluationIds('p-orphan')).toHaveLength(1);
  });

  it('closes an unpaid policy at term end plus the settlement period as expired, and lists it no more', async () => {
    const world = await openWorld();
    await world.issue('p-quiet', { termEnd: '2026-03-31' });

    // The day before closing it is still monitored (no readings: the evaluation records the skip).
    world.clock.set('2026-04-29T03:00:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, closed: 0, failed: 0, unchanged: 0 });
    await world.projected('p-quiet');
    expect(await world.row('p-quiet')).toEqual({ status: 'active', next_monitoring_date: null });
    expect(await world.tick()).toEqual({ evaluated: 0, closed: 0, failed: 0, unchanged: 0 });

    world.clock.set('2026-04-30T00:01:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 0, closed: 1, failed: 0, unchanged: 0 });
    const last = (await world.events('p-quiet')).at(-1)!;
    expect(last).toMatchObject({
      type: 'PolicyClosed',
      data: { status: 'expired' },
      metadata: { actor: MONITOR_SUBJECT },
    });

    await world.projected('p-quiet');
    expect(await world.row('p-quiet')).toEqual({ status: 'expired', next_monitoring_date: null });
    world.clock.set('2026-05-15T00:01:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 0, closed: 0, failed: 0, unchanged: 0 });
  });

  it('closes a policy it missed without evaluating it: nothing is paid after the closing date', async () => {
    const world = await openWorld();
    await world.issue('p-missed', { termEnd: '2026-03-31' });
    await world.readings(FLOOD);

    world.clock.set('2026-06-01T00:01:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 0, closed: 1, failed: 0, unchanged: 0 });
    const events = await world.events('p-missed');
    expect(events.map((event) => event.type)).toEqual(['PolicyIssued', 'PolicyClosed']);
    expect(events[1]!.data).toMatchObject({ status: 'expired', closed_at: '2026-06-01T00:01:00.000Z' });
  });

  it('closes a claimed policy too, keeps it claimed, and pays it nothing more however the data changes', async () => {
    const world = await openWorld();
    await world.issue('p-paid', { termEnd: '2026-03-31' });
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    expect(await world.tick()).toMatchObject({ evaluated: 1 });

    // A deeper flood comes in after the settlement period: the policy is closed, not evaluated.
    await world.readings([{ index: 'rainfall_mm', date: '2026-03-03', value: 200 }]);
    world.clock.set('2026-05-10T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 0, closed: 1, failed: 0, unchanged: 0 });
    await world.projected('p-paid');
    expect(await world.row('p-paid')).toEqual({ status: 'claimed', next_monitoring_date: null });
    world.clock.set('2027-03-31T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 0, closed: 0, failed: 0, unchanged: 0 });
    const events = await world.events('p-paid');
    expect(events.filter((event) => event.type === 'PayoutApproved')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'PolicyClosed', data: { status: 'claimed' } });
  });

  it('closes first and then refuses a live evaluation after the closing date, monitor or not', async () => {
    const world = await openWorld();
    await world.issue('p-late', { termEnd: '2026-03-31' });
    await world.readings(FLOOD);
    const context = monitorContext('org-a', new Date('2026-05-01T09:00:00.000Z'), 'request-1');

    await expect(liveEvaluation(world.deps, context, 'p-late')).rejects.toMatchObject({
      reason: 'rejected',
      code: 'policy_closed',
    });
    await expect(liveEvaluation(world.deps, context, 'p-late')).rejects.toMatchObject({ code: 'policy_closed' });
    // Closed once, by the first refusal; nothing evaluated, nothing paid.
    expect((await world.events('p-late')).map((event) => event.type)).toEqual(['PolicyIssued', 'PolicyClosed']);
    // A backtest still works on it.
    const backtest = await backtestEvaluation(world.deps, context, 'p-late', '2026-03-05');
    expect(backtest).toMatchObject({ is_backtest: true, total_payout: 4666.67, policy_status: 'expired' });
  });

  it('never evaluates or closes a lapsed policy', async () => {
    const world = await openWorld();
    const story = policyStory({
      policyId: 'p-lapsed',
      organizationId: 'org-a',
      perils: ['flood'],
      termStart: '2026-03-01',
      termEnd: '2026-03-31',
      issuedAt: ISSUED_AT,
    });
    story.lapse('premium not paid', '2026-03-01T12:00:00.000Z');
    await world.t.eventStore.append(story.streamId, story.takeNew(), 'no_stream');
    await world.projected('p-lapsed');
    await world.readings(FLOOD);

    for (const at of ['2026-03-02T00:05:00.000Z', '2026-03-20T00:05:00.000Z', '2026-06-01T00:05:00.000Z']) {
      world.clock.set(at);
      expect(await world.tick()).toEqual({ evaluated: 0, closed: 0, failed: 0, unchanged: 0 });
    }
    expect((await world.events('p-lapsed')).map((event) => event.type)).toEqual(['PolicyIssued', 'PolicyLapsed']);
  });

  it('logs a policy that fails and goes on with the others', async () => {
    const world = await openWorld();
    const story = await world.issue('p-good');
    await world.readings(FLOOD);
    // A row the log does not back (a read model restored from elsewhere): its monitoring fails.
    await world.t.db
      .insertInto('policies')
      .columns([
        'policy_id',
        'organization_id',
        'environment',
        'farm_id',
        'field_id',
        'farm_name',
        'field_name',
        'field_area_ha',
        'field_location',
        'crop_type',
        'sum_insured_minor',
        'currency',
        'premium_minor',
        'perils',
        'status',
        'issued_at',
        'term_start',
        'term_end',
        'platform_version',
        'next_monitoring_date',
        'aggregate',
        'stream_revision',
      ])
      .expression((eb) =>
        eb
          .selectFrom('policies')
          .select((inner) => [
            inner.val('p-ghost').as('policy_id'),
            'organization_id',
            'environment',
            'farm_id',
            'field_id',
            'farm_name',
            'field_name',
            'field_area_ha',
            'field_location',
            'crop_type',
            'sum_insured_minor',
            'currency',
            'premium_minor',
            'perils',
            'status',
            'issued_at',
            'term_start',
            'term_end',
            'platform_version',
            'next_monitoring_date',
            'aggregate',
            'stream_revision',
          ])
          .where('policy_id', '=', story.state.issued.policy_id),
      )
      .execute();

    world.clock.set('2026-03-02T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, closed: 0, failed: 1, unchanged: 0 });
    expect(await world.evaluationIds('p-good')).toHaveLength(1);
    const failure = world.logged
      .map((line) => JSON.parse(line))
      .find((line) => line.msg === 'policy monitoring failed');
    expect(failure).toMatchObject({ level: 'error', policy_id: 'p-ghost' });
  });

  it('runs passes on its interval, counts them, and stops after the policy in hand', async () => {
    const world = await openWorld();
    await world.issue('p-loop');
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    const registry = new Registry();
    const monitor = startPolicyMonitor({
      deps: world.deps,
      clock: world.clock,
      logger: world.t.logger,
      intervalMs: 20,
      metricsRegistry: registry,
    });
    const counted = async (name: string) => (await registry.getSingleMetric(name)!.get()).values[0]?.value ?? 0;
    try {
      await vi.waitFor(async () => expect(await counted('policy_monitor_policies_evaluated_total')).toBe(1), WAIT);
      await world.projected('p-loop');
      // The day's reading, dry: the window stays fully read, and nothing the policy is due moves.
      await world.readings([{ index: 'rainfall_mm', date: '2026-03-03', value: 0 }]);
      world.clock.set('2026-03-03T00:05:00.000Z');
      await vi.waitFor(async () => expect(await counted('policy_monitor_policies_evaluated_total')).toBe(2), WAIT);
    } finally {
      await monitor.stop();
    }
    world.clock.set('2026-03-04T00:05:00.000Z');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The second day's evaluation read one more reading and concluded the same: counted, not appended.
    expect(new Set(await world.evaluationIds('p-loop')).size).toBe(1);
    expect(await counted('policy_monitor_evaluations_unchanged_total')).toBe(1);
    expect(await counted('policy_monitor_policies_failed_total')).toBe(0);
    expect(await counted('policy_monitor_policies_closed_total')).toBe(0);
  });
});

describe('policy snapshots', () => {
  /** The policy's snapshot as the monitor would load it, and its state from the whole stream. */
  const snapshotAndReplay = async (world: World, policyId: string) => {
    const snapshot = (await readPolicySnapshots(world.t.db, [policyId])).get(policyId);
    const replayed = await loadStream(world.t.eventStore, policyStream(policyId), policyAggregate);
    return { snapshot, replayed };
  };

  it('keeps the state a round left, and the next round decides on it and the events recorded since', async () => {
    const world = await openWorld();
    await world.issue('p-snap');
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    await world.tick();
    const first = await snapshotAndReplay(world, 'p-snap');
    expect(first.snapshot).toEqual({
      state: first.replayed.state,
      revision: first.replayed.expected,
      position: first.replayed.position,
    });

    // A user's evaluation pays a deeper flood after the snapshot was taken.
    await world.readings([{ index: 'rainfall_mm', date: '2026-03-03', value: 100 }]);
    const user = monitorContext('org-a', new Date('2026-03-04T09:00:00.000Z'), 'request-1');
    await liveEvaluation(world.deps, user, 'p-snap');
    const paid = (await world.events('p-snap')).filter((event) => event.type === 'PayoutApproved');
    expect(paid).toHaveLength(2);
    // Loading from the snapshot reads the events after it: the state of the whole stream.
    const stream = policyStream('p-snap');
    const fromSnapshot = await loadStream(world.t.eventStore, stream, policyAggregate, first.snapshot);
    const whole = await loadStream(world.t.eventStore, stream, policyAggregate);
    expect({ ...fromSnapshot, from: undefined }).toEqual(whole);

    // The next round reads the events after the snapshot: it pays nothing again, and moves the snapshot on.
    world.clock.set('2026-03-05T00:05:00.000Z');
    expect(await world.tick()).toMatchObject({ evaluated: 1, failed: 0 });
    expect((await world.events('p-snap')).filter((event) => event.type === 'PayoutApproved')).toHaveLength(2);
    const later = await snapshotAndReplay(world, 'p-snap');
    expect(later.snapshot?.revision).toBe(later.replayed.expected);
    expect(later.snapshot?.state).toEqual(later.replayed.state);
  });

  it('reads what was recorded after the snapshot before it takes a round that appended nothing as done', async () => {
    const world = await openWorld();
    const story = await world.issue('p-lapsing');
    world.clock.set('2026-03-02T00:05:00.000Z');
    // No readings: the evaluation records why it skipped the flood, and would repeat that on later days.
    expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 0, closed: 0, failed: 0 });
    const { snapshot } = await snapshotAndReplay(world, 'p-lapsing');
    // The policy lapses after the snapshot: nothing is due on it any more.
    story.lapse('premium not paid', '2026-03-02T12:00:00.000Z');
    await world.t.eventStore.append(story.streamId, story.takeNew(), snapshot!.revision);

    const dailyRound = { readReadings: sharedReadingHistory(world.t.db), assessor: sharedPerilAssessor() };
    const round = await monitorPolicy(
      world.deps,
      'p-lapsing',
      new Date('2026-03-03T00:05:00.000Z'),
      'tick-1',
      dailyRound,
      snapshot,
    );
    expect(round).toMatchObject({ evaluated: false, unchanged: false, closed: false });
    expect(round.stream.expected).toBe(snapshot!.revision + 1);
    expect(round.stream.state).toMatchObject({ status: 'lapsed' });
  });

  it('reads the whole stream when the log has not reached the snapshot', async () => {
    const world = await openWorld();
    await world.issue('p-ahead');
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    await world.tick();
    // The read store was restored from a backup taken after the log's: its snapshot is ahead of the stream.
    await world.t.db
      .updateTable('policy_snapshots')
      .set((eb) => ({ stream_revision: eb('stream_revision', '+', 5) }))
      .where('policy_id', '=', 'p-ahead')
      .execute();

    await world.readings([{ index: 'rainfall_mm', date: '2026-03-02', value: 300 }]);
    world.clock.set('2026-03-03T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 0, closed: 0, failed: 0 });
    expect((await world.events('p-ahead')).filter((event) => event.type === 'PayoutApproved')).toHaveLength(2);
    const { snapshot, replayed } = await snapshotAndReplay(world, 'p-ahead');
    expect(snapshot?.state).toEqual(replayed.state);
  });

  it('reads the whole stream instead of a snapshot that is damaged or of another state version, and writes it again', async () => {
    const world = await openWorld();
    const { state: issued } = await world.issue('p-damaged');
    await world.readings(FLOOD);
    world.clock.set('2026-03-02T00:05:00.000Z');
    await world.tick();
    const { replayed } = await snapshotAndReplay(world, 'p-damaged');
    const recorded = (await world.events('p-damaged')).length;
    // Snapshots that would make the monitor pay the flood again, were they believed: the policy as issued,
    // unpaid. One is stored under the digest of the true state, one under an old state version.
    const unpaid = policySnapshotOf(issued);
    const truth = policySnapshotOf(replayed.state);
    const untrusted = [
      { state: unpaid.state, digest: truth.digest, state_version: POLICY_STATE_VERSION },
      { state: unpaid.state, digest: unpaid.digest, state_version: POLICY_STATE_VERSION - 1 },
    ];
    for (const [at, row] of untrusted.entries()) {
      await world.t.db.updateTable('policy_snapshots').set(row).where('policy_id', '=', 'p-damaged').execute();
      // Each day's reading, dry: the window stays fully read, and the day concludes what the last did.
      await world.readings([{ index: 'rainfall_mm', date: `2026-03-0${3 + at}`, value: 0 }]);
      world.clock.set(`2026-03-0${3 + at}T00:05:00.000Z`);
      expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 1, closed: 0, failed: 0 });
      expect(await world.events('p-damaged')).toHaveLength(recorded);
      expect((await snapshotAndReplay(world, 'p-damaged')).snapshot?.state).toEqual(replayed.state);
    }

    // A missing one is written again too.
    await world.t.db.deleteFrom('policy_snapshots').execute();
    await world.readings([{ index: 'rainfall_mm', date: '2026-03-05', value: 0 }]);
    world.clock.set('2026-03-05T00:05:00.000Z');
    expect(await world.tick()).toEqual({ evaluated: 1, unchanged: 1, closed: 0, failed: 0 });
    expect((await snapshotAndReplay(world, 'p-damaged')).snapshot?.state).toEqual(replayed.state);
  });
});
