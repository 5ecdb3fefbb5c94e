import {
  DomainError,
  defaultProgrammeId,
  policyStream,
  programmeAggregate,
  programmeStream,
  updateProgramme,
} from '@cropcover/domain';
import { policyIssuedEvents } from '@cropcover/domain/testing';
import { createPostgresEventStore, type EventStore, migrateEventStore } from '@cropcover/eventstore';
import { createLogger, createPool, endPool } from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleCommand, loadAggregate } from '../handle-command';
import { underwriterContext } from '../testing/underwriter-context';
import { issueInProgramme } from './issue-in-programme';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const context = underwriterContext(NOW);

/** Policies of KES 2,500.00 (250,000 cents) on the organization's default KES programme. */
const issue = (eventStore: EventStore, policyId: string) =>
  issueInProgramme(eventStore, policyId, () => policyIssuedEvents({ policyId, sumInsured: 2_500 }), context);

describe('issuing inside the programme', () => {
  let database: TestDatabase;
  let pool: ReturnType<typeof createPool>;
  let eventStore: EventStore;
  const programmeId = defaultProgrammeId('org-1', 'KES');

  beforeAll(async () => {
    database = await createTestDatabase('issue_in_programme');
    pool = createPool(database.url, createLogger({ level: 'silent' }));
    await migrateEventStore(pool);
    eventStore = createPostgresEventStore({ pool });
  });
  afterAll(async () => {
    await eventStore?.close();
    if (pool) await endPool(pool);
    await database?.drop();
  });

  const streamExists = async (streamId: string) => (await eventStore.readStream(streamId)).length > 0;

  it('reserves the first policy against a new default programme, in the same write as its issue', async () => {
    const issued = await issue(eventStore, 'first');
    const [reserved] = await eventStore.readStream(programmeStream(programmeId), { fromRevision: 1 });
    const [policy] = await eventStore.readStream(policyStream('first'));
    expect(reserved?.type).toBe('ExposureReserved');
    expect(policy?.position.commit).toBe(reserved?.position.commit);
    expect(issued.state.issued.programme_id).toBe(programmeId);
  });

  it('lets exactly the issues that fit through when 50 race for room for 10, and writes nothing for the rest', async () => {
    // Room for ten more policies of 2,500 beside the first.
    await handleCommand(
      eventStore,
      programmeStream(programmeId),
      programmeAggregate,
      (state) => updateProgramme({ actor: context.actor, request: { aggregate_limit: 27_500 }, now: NOW }, state),
      context,
    );
    const ids = Array.from({ length: 50 }, (_, at) => `racer-${at}`);
    const outcomes = await Promise.allSettled(ids.map((id) => issue(eventStore, id)));
    const issued = ids.filter((_, at) => outcomes[at]!.status === 'fulfilled');
    const refusals = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []));
    expect(issued).toHaveLength(10);
    expect(refusals).toHaveLength(40);
    for (const refusal of refusals) {
      expect(refusal).toBeInstanceOf(DomainError);
      expect((refusal as DomainError).code).toBe('capacity_exceeded');
      expect((refusal as DomainError).errors).toEqual([
        expect.objectContaining({
          limit: 'programme_aggregate',
          capacity: 27_500,
          committed: 27_500,
          requested: 2_500,
          available: 0,
        }),
      ]);
    }
    const programme = await loadAggregate(eventStore, programmeStream(programmeId), programmeAggregate);
    expect(programme.status === 'open' && programme.committed.aggregateMinor).toBe(2_750_000);
    const written = await Promise.all(ids.map((id) => streamExists(policyStream(id))));
    expect(ids.filter((_, at) => written[at])).toEqual(issued);
  });
});
