import {
  INTEGRATION_TOPICS,
  IntegrationMessageHeaders,
  PolicyEventMessage,
  ProgrammeEventMessage,
  RegistryEventMessage,
  TriggerBreachMessage,
} from '@cropcover/contracts';
import {
  bindTreaty,
  farmerStream,
  farmStream,
  indexSourceStream,
  initialReinsuranceLedger,
  programmeStream,
  reinsuranceStream,
  shareableIdStream,
} from '@cropcover/domain';
import { exposureReserved, gridSourceRegistered, policyExposure, programmeCreated } from '@cropcover/domain/testing';
import type { NewEvent, RecordedEvent } from '@cropcover/eventstore';
import { describe, expect, it } from 'vitest';
import { policyStory } from '../testing/policy-story';
import { farmerRegistered, farmRegistered, newEvent, shareableIdClaimed } from '../testing/registry-events';
import { routeToTopics } from './integration-messages';

const recorded = (streamId: string, events: readonly NewEvent[]): RecordedEvent[] =>
  events.map((event, revision) => ({
    ...event,
    streamId,
    revision,
    position: { commit: 1n, prepare: BigInt(revision) },
  }));

const breachedPolicy = () => {
  const story = policyStory({
    policyId: 'p-1',
    organizationId: 'org-a',
    perils: ['flood'],
    termStart: '2026-04-01',
    termEnd: '2026-04-30',
    issuedAt: '2026-03-28T08:00:00.000Z',
  });
  story.evaluate({ flood: [{ date: '2026-04-02', value: 200, revision: 1 }] }, '2026-04-05T06:00:00.000Z', 'eval-1');
  return recorded(story.streamId, story.events);
};

describe('routeToTopics', () => {
  it('sends every policy event to the policy topic keyed by policy id, and breaches to the breach topic too', () => {
    const events = breachedPolicy();
    const routed = events.flatMap((event) => routeToTopics(event, INTEGRATION_TOPICS));

    const policyMessages = routed.filter(({ topic }) => topic === INTEGRATION_TOPICS.policyEvents);
    expect(policyMessages.map(({ message }) => message.key)).toEqual(events.map(() => 'p-1'));
    const breaches = routed.filter(({ topic }) => topic === INTEGRATION_TOPICS.triggerBreaches);
    expect(breaches.map(({ message }) => message.headers.ce_type)).toEqual(['cropcover.TriggerBreached']);
    expect(events.map((event) => event.type)).toContain('PayoutApproved');
  });

  it('makes messages the documented schemas parse, with CloudEvents headers naming the event', () => {
    const events = breachedPolicy();
    for (const event of events) {
      for (const { topic, message } of routeToTopics(event, INTEGRATION_TOPICS)) {
        const headers = IntegrationMessageHeaders.parse(message.headers);
        expect(headers).toMatchObject({
          ce_id: event.metadata.event_id,
          ce_type: `cropcover.${event.type}`,
          ce_source: 'urn:cropcover:policy-p-1',
          ce_time: event.metadata.occurred_at,
          ce_specversion: '1.0',
        });
        const schema = topic === INTEGRATION_TOPICS.triggerBreaches ? TriggerBreachMessage : PolicyEventMessage;
        const value = schema.parse(JSON.parse(message.value));
        expect(value).toMatchObject({ policy_id: 'p-1', stream_revision: event.revision, type: event.type });
      }
    }
  });

  it('carries a traced event’s trace context as headers the contract documents, and none for an untraced one', () => {
    const [issued, ...rest] = breachedPolicy();
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    const traced = { ...issued!, metadata: { ...issued!.metadata, traceparent, tracestate: 'vendor=1' } };
    const [message] = routeToTopics(traced, INTEGRATION_TOPICS);
    expect(IntegrationMessageHeaders.parse(message?.message.headers)).toMatchObject({
      traceparent,
      tracestate: 'vendor=1',
    });
    for (const { message: untraced } of routeToTopics(rest[0]!, INTEGRATION_TOPICS))
      expect(Object.keys(untraced.headers)).not.toContain('traceparent');
  });

  it('keys farm and farmer events by their aggregate id on the registry topic', () => {
    const farmer = recorded(farmerStream('f1'), [farmerRegistered('f1', '2026-01-01T00:00:00.000Z')]);
    const farm = recorded(farmStream('m1'), [farmRegistered('m1', 'f1', '2026-01-02T00:00:00.000Z')]);
    const [farmerMessage, farmMessage] = [...farmer, ...farm].flatMap((event) =>
      routeToTopics(event, INTEGRATION_TOPICS),
    );

    expect(farmerMessage?.topic).toBe(INTEGRATION_TOPICS.registryEvents);
    expect(farmerMessage?.message.key).toBe('f1');
    expect(RegistryEventMessage.parse(JSON.parse(farmerMessage?.message.value ?? ''))).toMatchObject({
      aggregate_type: 'farmer',
      aggregate_id: 'f1',
      type: 'FarmerRegistered',
    });
    expect(farmMessage?.message.key).toBe('m1');
    expect(RegistryEventMessage.parse(JSON.parse(farmMessage?.message.value ?? ''))).toMatchObject({
      aggregate_type: 'farm',
      aggregate_id: 'm1',
      type: 'FarmRegistered',
    });
  });

  it('keys index source events by the source id on the registry topic', () => {
    const [source] = recorded(indexSourceStream('src-grid'), [
      newEvent(gridSourceRegistered.type, gridSourceRegistered.data),
    ]);
    const [message, ...others] = source ? routeToTopics(source, INTEGRATION_TOPICS) : [];

    expect(others).toEqual([]);
    expect(message?.topic).toBe(INTEGRATION_TOPICS.registryEvents);
    expect(message?.message.key).toBe('src-grid');
    expect(RegistryEventMessage.parse(JSON.parse(message?.message.value ?? ''))).toMatchObject({
      aggregate_type: 'index_source',
      aggregate_id: 'src-grid',
      type: 'IndexSourceRegistered',
      data: { resolution_deg: 0.05 },
    });
  });

  it('keys programme and reinsurance events by the programme id on the programme topic', () => {
    const programme = recorded(programmeStream('prog-1'), [
      newEvent(programmeCreated().type, programmeCreated().data),
      newEvent('ExposureReserved', exposureReserved(policyExposure('p-1', 100)).data),
    ]);
    const [bound] = bindTreaty(
      {
        actor: { subject: 'u', organizationId: 'org-1', isAdmin: false },
        treatyId: 't-1',
        programme: { programmeId: 'prog-1', organizationId: 'org-1', currency: 'KES' },
        request: { type: 'quota_share', cession_rate: 0.75, ceding_commission: 0 },
        now: new Date('2026-03-01T00:00:00.000Z'),
      },
      initialReinsuranceLedger,
    );
    const reinsurance = recorded(reinsuranceStream('prog-1'), [newEvent(bound!.type, bound!.data)]);
    const messages = [...programme, ...reinsurance].flatMap((event) => routeToTopics(event, INTEGRATION_TOPICS));

    expect(messages.map(({ topic, message }) => [topic, message.key, message.headers.ce_source])).toEqual([
      [INTEGRATION_TOPICS.programmeEvents, 'prog-1', 'urn:cropcover:programme-prog-1'],
      [INTEGRATION_TOPICS.programmeEvents, 'prog-1', 'urn:cropcover:programme-prog-1'],
      [INTEGRATION_TOPICS.programmeEvents, 'prog-1', 'urn:cropcover:reinsurance-prog-1'],
    ]);
    expect(messages.map(({ message }) => ProgrammeEventMessage.parse(JSON.parse(message.value)))).toMatchObject([
      { programme_id: 'prog-1', stream_kind: 'programme', type: 'ProgrammeCreated' },
      { programme_id: 'prog-1', stream_kind: 'programme', type: 'ExposureReserved' },
      { programme_id: 'prog-1', stream_kind: 'reinsurance', type: 'TreatyBound', data: { treaty_id: 't-1' } },
    ]);
  });

  it('publishes internal streams nowhere', () => {
    const claim = recorded(shareableIdStream('PM4N8R2WJC'), [
      shareableIdClaimed({ code: 'PM4N8R2WJC', claimed_by: 'farm-m1' }),
    ]);
    expect(claim.flatMap((event) => routeToTopics(event, INTEGRATION_TOPICS))).toEqual([]);
  });

  it('refuses in the documented schema a message whose payload does not match its type', () => {
    const [issued] = breachedPolicy();
    if (!issued) throw new Error('the story issues a policy');
    const [routed] = routeToTopics({ ...issued, data: { policy_id: 'p-1' } }, INTEGRATION_TOPICS);
    expect(PolicyEventMessage.safeParse(JSON.parse(routed?.message.value ?? '')).success).toBe(false);
  });
});
