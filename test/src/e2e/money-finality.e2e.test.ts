import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import type { Caller } from '../support/api-client';
import { addDays, today } from '../support/calendar';
import { grantInsurance } from '../support/farm-access';
import { recordReadings } from '../support/index-readings';
import { expectProblem } from '../support/problem-assertions';
import { serviceUnderTest } from '../support/service-under-test';

// Issue 10 over HTTP: exact payouts (one rounding of the exact fraction), revisions after payout
// (PayoutOverpaymentRecorded, never a clawback) and finality (PolicyClosed at term end + settlement).
//
// The service runs on the real clock and cover may start at most 7 days back, so a policy past its term
// end + 30 days cannot be issued over HTTP. Those policies are seeded the way the log would hold them
// had they been issued (and paid) over a year ago: the events a real policy recorded over HTTP, copied
// into a new stream with every date moved 400 days back. Everything after that goes through HTTP.

const SHIFT_DAYS = -400;
const WAIT = { timeout: 20_000, interval: 50 } as const;

// The monitor would close the seeded policies on its own; here the evaluation must meet them open.
const suite = serviceUnderTest('e2e_money_finality', { MONITOR_ENABLED: 'false' });
const { api, query } = suite;
let sequence = 0;

const insurer: Caller = { sub: 'underwriter-a', org: 'org-money', roles: ['insurer'] };
// The insurer's own organization's data provider: a policy naming no source reads only its readings.
const dataProvider: Caller = { sub: 'weather-feed', org: insurer.org, roles: ['data_provider'] };
const farmer = (): Caller => ({ sub: `farmer-${++sequence}-${Date.now()}`, givenName: 'Amina', familyName: 'Otieno' });

const farmWithField = async () => {
  const owner = farmer();
  const farm = await api.post('/farms/create', owner, { name: 'Shamba' });
  expect(farm.status).toBe(201);
  await grantInsurance(api, owner, farm.body.farm_id, insurer.org!);
  const field = await api.post(`/farms/${farm.body.farm_id}/fields`, owner, {
    field_id: `plot-${++sequence}`,
    name: 'North plot',
    area_ha: 2.5,
    location: { lat: -1.29, lon: 36.82 },
    crop_type: 'maize',
  });
  expect(field.status).toBe(201);
  return { farm_id: farm.body.farm_id as string, field_id: field.body.field_id as string };
};

/** A flood cover (threshold 150 mm in 5 days, exit 300) that started 5 days ago. */
const issueFlood = async (field: { farm_id: string; field_id: string }, currency: string, sumInsured: number) => {
  const response = await api.post('/insurance/policies', insurer, {
    farm_id: field.farm_id,
    field_id: field.field_id,
    perils: ['flood'],
    sum_insured: sumInsured,
    currency,
    term_start: addDays(today(), -5),
    term_end: addDays(today(), 90),
  });
  expect(response.status).toBe(201);
  return response.body as { policy_id: string; term_start: string };
};

/** One day's rain on the second day of the term; posting it again corrects it (a new revision). */
const rainOnDayTwo = (field: { farm_id: string; field_id: string }, termStart: string, mm: number) =>
  recordReadings(api, dataProvider, field, 'rainfall_mm', addDays(termStart, 1), [mm]);

const evaluate = (policyId: string) => api.post(`/insurance/policies/${policyId}/evaluate`, insurer, {});

const auditEvents = async (policyId: string): Promise<{ type: string; data: any }[]> => {
  const response = await api.get(`/insurance/policies/${policyId}/events?page_size=100`, insurer);
  expect(response.status).toBe(200);
  return response.body.items;
};

const eventCount = async (): Promise<number> =>
  Number(
    (
      await query<{ count: string }>(
        // The programme book keeper writes programme and reinsurance streams on its own, moments after an
        // issue, lapse, close or payout: what a request appended is the rest.
        `select count(*) from events where stream_id not like 'programme-%' and stream_id not like 'reinsurance-%'`,
      )
    ).rows[0]!.count,
  );

const shiftDates = (value: unknown, from: string, to: string): unknown =>
  JSON.parse(
    JSON.stringify(value)
      .replaceAll(from, to)
      .replace(/\d{4}-\d{2}-\d{2}/g, (date) => addDays(date, SHIFT_DAYS)),
  );

/** A copy of `policyId`'s first `events` events as a new policy whose every date is 400 days earlier:
 *  the log of a policy issued (and, with the evaluation events, paid) over a year ago. */
const seedPastPolicy = async (policyId: string, events: number): Promise<string> => {
  const pastId = randomUUID();
  const { rows } = await query<{ event_type: string; data: unknown; metadata: Record<string, unknown> }>(
    'select event_type, data, metadata from events_json where stream_id = $1 order by stream_revision limit $2',
    [`policy-${policyId}`, events],
  );
  for (const [revision, row] of rows.entries()) {
    const eventId = randomUUID();
    await query(
      `insert into events (stream_id, stream_revision, event_id, event_type, data, metadata)
       values ($1, $2, $3, $4, $5, $6)`,
      [
        `policy-${pastId}`,
        revision,
        eventId,
        row.event_type,
        shiftDates(row.data, policyId, pastId),
        { ...(shiftDates(row.metadata, policyId, pastId) as object), event_id: eventId },
      ],
    );
  }
  await vi.waitFor(
    async () => expect((await api.get(`/insurance/policies/${pastId}`, insurer)).status).toBe(200),
    WAIT,
  );
  return pastId;
};

describe('exact payouts (issue 10, problem 4)', () => {
  it('pays KES 250,000 at severity 1/3 as 83,333.33 (was 83,333.25), showing severity to 6 decimals', async () => {
    const field = await farmWithField();
    const policy = await issueFlood(field, 'KES', 250_000);
    await rainOnDayTwo(field, policy.term_start, 200);
    const response = await evaluate(policy.policy_id);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      total_payout: 83_333.33,
      currency: 'KES',
      payout_count: 1,
      events: [{ peril: 'flood', observed_value: 200, severity: 0.333333 }],
    });
  });

  it('pays JPY 10,000,000,000 at 1/3 as 3,333,333,333 (was 3,333,330,000) and at 2/3 as 6,666,666,667, not more', async () => {
    for (const [rain, paid] of [
      [200, 3_333_333_333],
      [250, 6_666_666_667],
    ] as const) {
      const field = await farmWithField();
      const policy = await issueFlood(field, 'JPY', 10_000_000_000);
      await rainOnDayTwo(field, policy.term_start, rain);
      const response = await evaluate(policy.policy_id);
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ total_payout: paid, currency: 'JPY' });
    }
  });
});

describe('a reading corrected after a payout (issue 10, problem 2)', () => {
  it('records the overpayment once per change, in the policy’s events and its history, and takes nothing back', async () => {
    const field = await farmWithField();
    const policy = await issueFlood(field, 'KES', 250_000);
    await rainOnDayTwo(field, policy.term_start, 250);
    expect((await evaluate(policy.policy_id)).body).toMatchObject({ total_payout: 166_666.67 });

    // The provider corrects 250 mm to 200 mm: due 83,333.33 of the 166,666.67 paid.
    await rainOnDayTwo(field, policy.term_start, 200);
    const corrected = await evaluate(policy.policy_id);
    expect(corrected.status).toBe(200);
    expect(corrected.body).toMatchObject({ total_payout: 0, payout_count: 0, policy_status: 'claimed' });
    const recorded = (await auditEvents(policy.policy_id)).filter(
      (event) => event.type === 'PayoutOverpaymentRecorded',
    );
    expect(recorded).toEqual([
      expect.objectContaining({
        data: expect.objectContaining({
          policy_id: policy.policy_id,
          peril: 'flood',
          amount_paid_minor: 16_666_667,
          amount_due_minor: 8_333_333,
          difference_minor: 8_333_334,
          currency: 'KES',
        }),
      }),
    ]);
    const history = await api.get(`/insurance/policies/${policy.policy_id}/evaluations`, insurer, {
      'consistency-token': corrected.headers.get('consistency-token')!,
    });
    expect(history.body.items[0]).toMatchObject({
      observed_value: 200,
      overpayment: { amount_paid: 166_666.67, amount_due: 83_333.33, difference: 83_333.34, currency: 'KES' },
    });
    expect(history.body.items[1]).not.toHaveProperty('overpayment');

    // Nothing changed: not recorded again.
    expect((await evaluate(policy.policy_id)).status).toBe(200);
    const events = await auditEvents(policy.policy_id);
    expect(events.filter((event) => event.type === 'PayoutOverpaymentRecorded')).toHaveLength(1);

    // A deeper correction, 260 mm (due 183,333.33), pays only above the 166,666.67 already paid.
    await rainOnDayTwo(field, policy.term_start, 260);
    expect((await evaluate(policy.policy_id)).body).toMatchObject({ total_payout: 16_666.66, payout_count: 1 });
  });
});

describe('finality (issue 10, problem 1)', () => {
  it('refuses to pay a claimed policy evaluated a year after its term, though a deeper reading came in', async () => {
    const field = await farmWithField();
    const policy = await issueFlood(field, 'KES', 250_000);
    await rainOnDayTwo(field, policy.term_start, 200);
    expect((await evaluate(policy.policy_id)).body).toMatchObject({ total_payout: 83_333.33 });
    // PolicyIssued, TriggerEvaluated, TriggerBreached, PayoutApproved: paid 400 days ago.
    const pastId = await seedPastPolicy(policy.policy_id, 4);
    const pastStart = addDays(policy.term_start, SHIFT_DAYS);
    await rainOnDayTwo(field, pastStart, 300);

    const refused = await evaluate(pastId);
    expectProblem(refused, 422, 'policy_closed');
    const events = await auditEvents(pastId);
    expect(events.map((event) => event.type)).toEqual([
      'PolicyIssued',
      'TriggerEvaluated',
      'TriggerBreached',
      'PayoutApproved',
      'PolicyClosed',
    ]);
    expect(events.at(-1)!.data).toMatchObject({ policy_id: pastId, status: 'claimed' });

    // Refused again: closed once, nothing else recorded.
    const before = await eventCount();
    expectProblem(await evaluate(pastId), 422, 'policy_closed');
    expect(await eventCount()).toBe(before);
    await vi.waitFor(async () => {
      const view = await api.get(`/insurance/policies/${pastId}`, insurer);
      expect(view.body).toMatchObject({ status: 'claimed', closed_at: expect.any(String) });
      expect(view.body).not.toHaveProperty('next_monitoring_date');
    }, WAIT);
  });

  it('refuses an active policy the monitor never closed, closing it as expired; backtests still work', async () => {
    const field = await farmWithField();
    const policy = await issueFlood(field, 'KES', 250_000);
    const pastId = await seedPastPolicy(policy.policy_id, 1);
    const pastStart = addDays(policy.term_start, SHIFT_DAYS);
    await rainOnDayTwo(field, pastStart, 400);

    expectProblem(await evaluate(pastId), 422, 'policy_closed');
    expect((await auditEvents(pastId)).map((event) => event.type)).toEqual(['PolicyIssued', 'PolicyClosed']);
    await vi.waitFor(async () => {
      expect((await api.get(`/insurance/policies/${pastId}`, insurer)).body).toMatchObject({ status: 'expired' });
    }, WAIT);
    const backtest = await api.post(`/insurance/policies/${pastId}/evaluate`, insurer, {
      as_of: addDays(pastStart, 3),
    });
    expect(backtest.status).toBe(200);
    expect(backtest.body).toMatchObject({ is_backtest: true, total_payout: 250_000, policy_status: 'expired' });
  });
});
