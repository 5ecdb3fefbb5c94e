import { type CommandContext, handleCommand, issueInProgramme, loadAggregate } from '@cropcover/application';
import {
  bindTreaty,
  defaultProgrammeId,
  lapsePolicy,
  policyAggregate,
  policyStream,
  programmeAggregate,
  programmeStream,
  reinsuranceLedgerAggregate,
  reinsuranceStream,
} from '@cropcover/domain';
import { policyIssuedEvents } from '@cropcover/domain/testing';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import { createLogger, createPool, endPool, settableClock } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { programmeBookKeeper } from './programme-book-keeper';

const NOW = new Date('2026-04-01T12:00:00.000Z');
const context: CommandContext = {
  principal: { sub: 'underwriter', organizationId: 'org-1', roles: ['insurer'] },
  actor: { subject: 'underwriter', organizationId: 'org-1', isAdmin: false, roles: ['insurer'] },
  requestId: 'request-1',
  correlationId: 'correlation-1',
  now: NOW,
};
const programmeId = defaultProgrammeId('org-1', 'KES');

describe('the programme book keeper', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let eventStore: EventStore;

  beforeAll(async () => {
    database = await createTestDatabase('programme_book_keeper');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    await migrateEventStore(pool);
    eventStore = createPostgresEventStore({ pool });
  });
  afterAll(async () => {
    await eventStore?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const issue = (policyId: string) =>
    issueInProgramme(eventStore, policyId, () => policyIssuedEvents({ policyId, sumInsured: 2_500 }), context);
  const keepAll = async () =>
    programmeBookKeeper(eventStore, settableClock(NOW)).apply(
      undefined as never,
      await eventStore.readAll('start', 1000),
    );
  const ledgerEvents = async () => (await eventStore.readStream(reinsuranceStream(programmeId))).map((e) => e.type);

  it('cedes premium at issue, gives it back and releases the exposure at a lapse, and records nothing twice', async () => {
    const first = await issue('a');
    const programme = await loadAggregate(eventStore, programmeStream(programmeId), programmeAggregate);
    if (programme.status !== 'open') throw new Error('the default programme is open');
    await handleCommand(
      eventStore,
      reinsuranceStream(programmeId),
      reinsuranceLedgerAggregate,
      (ledger) =>
        bindTreaty(
          {
            actor: context.actor,
            treatyId: 'qs',
            programme,
            request: {
              type: 'quota_share',
              cession_rate: 0.75,
              ceding_commission: 0,
              period: { from: '2026-01-01', to: '2026-12-31' },
            },
            now: NOW,
          },
          ledger,
        ),
      context,
    );
    const second = await issue('b');
    await keepAll();
    const premium = first.state.issued.premium_minor + second.state.issued.premium_minor;
    const ledger = await loadAggregate(eventStore, reinsuranceStream(programmeId), reinsuranceLedgerAggregate);
    const ceded = (await eventStore.readStream(reinsuranceStream(programmeId)))
      .filter((event) => event.type === 'PremiumCeded')
      .at(-1)?.data as { cumulative_ceded_minor: number; cumulative_gross_minor: number };
    expect(ceded.cumulative_gross_minor).toBe(premium);
    expect(ceded.cumulative_ceded_minor).toBe(Math.floor((premium * 3) / 4 + 0.5));
    expect(ledger.treaties).toHaveLength(1);

    await handleCommand(
      eventStore,
      policyStream('b'),
      policyAggregate,
      (state) => lapsePolicy({ actor: context.actor, reason: 'premium not paid', now: NOW }, state),
      context,
    );
    await keepAll();
    const after = await loadAggregate(eventStore, programmeStream(programmeId), programmeAggregate);
    expect(after.status === 'open' && after.committed.aggregateMinor).toBe(250_000);
    const lapsedCession = (await eventStore.readStream(reinsuranceStream(programmeId)))
      .filter((event) => event.type === 'PremiumCeded')
      .at(-1)?.data as { cumulative_gross_minor: number };
    expect(lapsedCession.cumulative_gross_minor).toBe(first.state.issued.premium_minor);

    const recorded = await ledgerEvents();
    const programmeRevisions = (await eventStore.readStream(programmeStream(programmeId))).length;
    await keepAll();
    expect(await ledgerEvents()).toEqual(recorded);
    expect((await eventStore.readStream(programmeStream(programmeId))).length).toBe(programmeRevisions);
  });
});
