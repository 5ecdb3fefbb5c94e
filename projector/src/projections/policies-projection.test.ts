import { randomUUID } from 'node:crypto';
import { ERASED_TEXT } from '@cropcover/contracts';
import { sheetDigest } from '@cropcover/domain';
import { KHARIF_DEFICIT_SHEET } from '@cropcover/domain/testing';
import type { RecordedEvent } from '@cropcover/eventstore';
import { calendarDateOf } from '@cropcover/read-store';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyBatch } from '../projection-batch';
import { type PolicyStory, policyStory } from '../testing/policy-story';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '../testing/projector-test-database';
import { readWholeLog } from '../testing/visible-log';
import { policiesProjection } from './policies-projection';

describe('policies projection', () => {
  let t: ProjectorTestDatabase;
  let log: RecordedEvent[];
  let claimed: PolicyStory;
  let floodPayoutId: string;

  beforeAll(async () => {
    t = await openProjectorTestDatabase('projector_policies');
    claimed = policyStory({
      policyId: 'p-claimed',
      organizationId: 'org-a',
      perils: ['flood', 'storm'],
      termStart: '2026-04-01',
      termEnd: '2026-04-30',
      issuedAt: '2026-03-28T08:00:00.000Z',
    });
    claimed.evaluate(
      { flood: [{ date: '2026-04-02', value: 200, revision: 1 }] },
      '2026-04-05T06:00:00.000Z',
      'eval-1',
    );
    floodPayoutId = claimed.state.payouts[0]!.payoutId;
    claimed.settle(floodPayoutId, '2026-04-06T09:00:00.000Z');
    claimed.evaluate(
      {
        flood: [{ date: '2026-04-02', value: 200, revision: 1 }],
        storm: [{ date: '2026-04-06', value: 30, revision: 1 }],
      },
      '2026-04-07T06:00:00.000Z',
      'eval-2',
    );
    // The flood reading corrected down after its payout: an overpayment, nothing taken back.
    claimed.evaluate(
      {
        flood: [{ date: '2026-04-02', value: 180, revision: 2 }],
        storm: [{ date: '2026-04-06', value: 30, revision: 1 }],
      },
      '2026-04-08T06:00:00.000Z',
      'eval-3',
    );
    await t.eventStore.append(claimed.streamId, claimed.takeNew(), 'no_stream');

    const lapsed = policyStory({
      policyId: 'p-lapsed',
      organizationId: 'org-b',
      farmId: 'farm-2',
      perils: ['drought'],
      termStart: '2026-05-01',
      termEnd: '2026-07-31',
      issuedAt: '2026-04-28T10:00:00.000Z',
    });
    lapsed.lapse('premium not paid', '2026-05-03T10:00:00.000Z');
    await t.eventStore.append(lapsed.streamId, lapsed.takeNew(), 'no_stream');
    log = await readWholeLog(t.eventStore, claimed.events.length + lapsed.events.length);
  });
  afterAll(() => t?.close());

  const empty = () => sql`truncate policies, policy_counts, policy_evaluations, policy_payouts`.execute(t.db);
  const dump = async () => ({
    policies: await t.db
      .selectFrom('policies')
      .select((eb) => [
        'policy_id',
        'organization_id',
        'farm_id',
        'perils',
        'status',
        'sum_insured_minor',
        'premium_minor',
        'currency',
        'issued_at',
        calendarDateOf(eb.ref('term_start')).as('term_start'),
        calendarDateOf(eb.ref('term_end')).as('term_end'),
        calendarDateOf(eb.ref('next_monitoring_date')).as('next_monitoring_date'),
        'stream_revision',
      ])
      .orderBy('policy_id')
      .execute(),
    evaluations: await t.db
      .selectFrom('policy_evaluations')
      .select((eb) => [
        'evaluation_id',
        'peril',
        'policy_id',
        'organization_id',
        'observed_value',
        'threshold',
        'breached',
        'severity',
        calendarDateOf(eb.ref('as_of')).as('as_of'),
        calendarDateOf(eb.ref('window_start')).as('window_start'),
        calendarDateOf(eb.ref('window_end')).as('window_end'),
        'evaluated_at',
        'days_with_reading',
        'days_in_window',
        'payout_id',
        'overpayment_paid_minor',
        'overpayment_due_minor',
        'overpayment_currency',
        'overpayment_recorded_at',
      ])
      .orderBy('evaluated_at')
      .orderBy('peril')
      .execute(),
    payouts: await t.db.selectFrom('policy_payouts').selectAll().orderBy('approved_at').execute(),
    // A count that went back to 0 may stay as a row: it adds nothing to a sum.
    counts: await t.db
      .selectFrom('policy_counts')
      .selectAll()
      .where(sql<boolean>`policies > 0`)
      .orderBy('organization_id')
      .orderBy('status')
      .execute(),
  });

  it('projects policies, their evaluation history with overpayments, and payouts from the whole log', async () => {
    await empty();
    await applyBatch(t.db, policiesProjection, log);
    const { policies, evaluations, payouts, counts } = await dump();
    expect(policies).toEqual([
      {
        policy_id: 'p-claimed',
        organization_id: 'org-a',
        farm_id: 'farm-1',
        perils: ['flood', 'storm'],
        status: 'claimed',
        sum_insured_minor: 1_000_000n,
        premium_minor: BigInt(claimed.state.issued.premium_minor),
        currency: 'KES',
        issued_at: new Date('2026-03-28T08:00:00.000Z'),
        term_start: '2026-04-01',
        term_end: '2026-04-30',
        // The day after the last live evaluation, as the domain's nextMonitoringDate says.
        next_monitoring_date: '2026-04-09',
        stream_revision: claimed.events.length - 1,
      },
      expect.objectContaining({ policy_id: 'p-lapsed', status: 'lapsed', next_monitoring_date: null }),
    ]);
    expect(evaluations).toEqual([
      {
        evaluation_id: 'eval-1',
        peril: 'flood',
        policy_id: 'p-claimed',
        organization_id: 'org-a',
        observed_value: 200,
        threshold: 150,
        breached: true,
        severity: 0.333333,
        as_of: '2026-04-05',
        window_start: '2026-04-01',
        window_end: '2026-04-05',
        evaluated_at: new Date('2026-04-05T06:00:00.000Z'),
        // One day of the window's five held a reading, as the TriggerEvaluated says.
        days_with_reading: 1,
        days_in_window: 5,
        payout_id: floodPayoutId,
        overpayment_paid_minor: null,
        overpayment_due_minor: null,
        overpayment_currency: null,
        overpayment_recorded_at: null,
      },
      expect.objectContaining({
        evaluation_id: 'eval-2',
        peril: 'flood',
        breached: true,
        days_with_reading: 1,
        days_in_window: 7,
        payout_id: null,
      }),
      expect.objectContaining({
        evaluation_id: 'eval-2',
        peril: 'storm',
        observed_value: 30,
        severity: 0.333333,
        days_with_reading: 1,
        days_in_window: 7,
        payout_id: expect.any(String),
      }),
      expect.objectContaining({
        evaluation_id: 'eval-3',
        peril: 'flood',
        observed_value: 180,
        payout_id: null,
        // Paid 1/3 of KES 10,000; now due 30/150 of it.
        overpayment_paid_minor: 333_333n,
        overpayment_due_minor: 200_000n,
        overpayment_currency: 'KES',
        overpayment_recorded_at: new Date('2026-04-08T06:00:00.000Z'),
      }),
      expect.objectContaining({
        evaluation_id: 'eval-3',
        peril: 'storm',
        payout_id: null,
        overpayment_paid_minor: null,
      }),
    ]);
    expect(payouts).toEqual([
      {
        payout_id: floodPayoutId,
        policy_id: 'p-claimed',
        organization_id: 'org-a',
        peril: 'flood',
        evaluation_id: 'eval-1',
        amount_minor: 333_333n,
        currency: 'KES',
        status: 'settled',
        approved_at: new Date('2026-04-05T06:00:00.000Z'),
        settled_at: new Date('2026-04-06T09:00:00.000Z'),
      },
      expect.objectContaining({ peril: 'storm', evaluation_id: 'eval-2', status: 'approved', settled_at: null }),
    ]);
    expect(counts).toEqual([
      { organization_id: 'org-a', status: 'claimed', perils: ['flood', 'storm'], policies: 1n },
      { organization_id: 'org-b', status: 'lapsed', perils: ['drought'], policies: 1n },
    ]);
  });

  it('changes nothing when the log is applied again', async () => {
    const before = await dump();
    await applyBatch(t.db, policiesProjection, log);
    await applyBatch(t.db, policiesProjection, log.slice(3));
    expect(await dump()).toEqual(before);
  });

  it('ends the same when every event comes in a batch of its own', async () => {
    const whole = await dump();
    await empty();
    for (const event of log) await applyBatch(t.db, policiesProjection, [event]);
    expect(await dump()).toEqual(whole);
  });

  it("scrubs the farm name of an erased farmer's policies, found by their owner, and no one else's", async () => {
    await empty();
    // p-lapsed is another farmer's: both stories' farms are farmer-1's.
    const ownedByTwo = log.map((event) =>
      event.type === 'PolicyIssued' && (event.data as { policy_id: string }).policy_id === 'p-lapsed'
        ? { ...event, data: { ...(event.data as object), owner_farmer_id: 'farmer-2' } }
        : event,
    );
    const last = log.at(-1)!;
    const erased: RecordedEvent = {
      ...last,
      streamId: 'farmer-farmer-1',
      revision: 0,
      type: 'FarmerErased',
      data: { farmer_id: 'farmer-1', erased_at: '2026-05-04T00:00:00.000Z', erased_by: 'farmer' },
      metadata: { ...last.metadata, event_id: randomUUID() },
    };
    await applyBatch(t.db, policiesProjection, [...ownedByTwo, erased]);
    const rows = await t.db
      .selectFrom('policies')
      .select((eb) => [
        'policy_id',
        'owner_farmer_id',
        'farm_name',
        eb.ref('aggregate', '->').key('issued').as('issued'),
      ])
      .orderBy('policy_id')
      .execute();
    expect(rows.map(({ issued, ...row }) => ({ ...row, issued_farm_name: issued.farm_name }))).toEqual([
      { policy_id: 'p-claimed', owner_farmer_id: 'farmer-1', farm_name: ERASED_TEXT, issued_farm_name: ERASED_TEXT },
      { policy_id: 'p-lapsed', owner_farmer_id: 'farmer-2', farm_name: 'Shamba', issued_farm_name: 'Shamba' },
    ]);
  });

  it('keeps no coverage for an evaluation recorded before coverage was', async () => {
    await empty();
    const withoutCoverage = log.map((event) => {
      if (event.type !== 'TriggerEvaluated') return event;
      const { coverage: _, ...data } = event.data as Record<string, unknown>;
      return { ...event, data };
    });
    await applyBatch(t.db, policiesProjection, withoutCoverage);
    const { evaluations } = await dump();
    expect(evaluations).toHaveLength(5);
    for (const evaluation of evaluations)
      expect(evaluation).toMatchObject({ days_with_reading: null, days_in_window: null });
  });

  it('keeps each phase of a cover of several phases beside the governing one, amounts in major units', async () => {
    const kharif = policyStory({
      policyId: 'p-kharif',
      organizationId: 'org-a',
      perils: ['drought'],
      sumInsured: 30_000,
      currency: 'INR',
      termStart: '2026-06-01',
      termEnd: '2026-09-30',
      issuedAt: '2026-05-30T08:00:00.000Z',
      product: {
        ref: { product_id: 'kharif', version: 1, digest: sheetDigest(KHARIF_DEFICIT_SHEET) },
        sheet: KHARIF_DEFICIT_SHEET,
      },
    });
    // Phase 1 read 1 mm a day: 30 mm, past its exit of 40 (Rs 6,000); phase 2 has begun, phase 3 not.
    const june = Array.from({ length: 31 }, (_, day) => ({
      date: `2026-${day < 30 ? `06-${String(day + 1).padStart(2, '0')}` : '07-01'}`,
      value: 1,
      revision: 1,
    }));
    kharif.evaluate({ drought: june }, '2026-07-01T06:00:00.000Z', 'eval-kharif');
    await t.eventStore.append(kharif.streamId, kharif.takeNew(), 'no_stream');
    await applyBatch(t.db, policiesProjection, await readWholeLog(t.eventStore, log.length + kharif.events.length));
    const row = await t.db
      .selectFrom('policy_evaluations')
      .select(['observed_value', 'threshold', 'phases'])
      .where('evaluation_id', '=', 'eval-kharif')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ observed_value: 30, threshold: 100 });
    expect(row.phases).toEqual([
      expect.objectContaining({ phase: 'establishment', status: 'closed', breached: true, amount_due: 6_000 }),
      expect.objectContaining({ phase: 'vegetative', status: 'open', breached: false, amount_due: 0 }),
      {
        phase: 'flowering',
        window_start: '2026-08-11',
        window_end: '2026-09-30',
        status: 'not_open',
        trigger: 160,
        exit: 40,
        breached: false,
        amount_due: 0,
      },
    ]);
    const single = await t.db
      .selectFrom('policy_evaluations')
      .select('phases')
      .where('policy_id', '=', 'p-claimed')
      .execute();
    expect(single.every((evaluation) => evaluation.phases === null)).toBe(true);
  });
});
