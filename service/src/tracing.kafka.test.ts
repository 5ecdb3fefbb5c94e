import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger, loadConfig, signDevToken } from '@cropcover/runtime';
import {
  createTestDatabase,
  describeWithKafka,
  type ReadableSpan,
  recordSpansInMemory,
  type SpansInMemory,
  type TestDatabase,
  testBrokers,
} from '@cropcover/runtime/testing';
import { SpanKind } from '@opentelemetry/api';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ROLES } from './roles';
import { type RunningService, startService } from './start';

// Issue 13, item 8, "Done when": one trace from `POST /insurance/policies/{id}/evaluate` to the
// webhook's HTTP send. Every role runs in this one process, on real PostgreSQL and a real Kafka broker,
// so the trace crosses the event log and a Kafka topic exactly as it does between separate processes;
// the spans are kept in memory instead of going to an OTLP collector.

const JWT_SECRET = 'tracing-test-secret-of-at-least-32-characters';
const CALLER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
const TOPIC_PREFIX = `tracing-${randomUUID().slice(0, 8)}.`;

const insurer = { sub: 'tracing-underwriter', org: 'org-tracing', roles: ['insurer'] };
const feed = { sub: 'tracing-feed', org: 'org-tracing', roles: ['data_provider'] };
const owner = { sub: 'tracing-farmer', givenName: 'Amina', familyName: 'Otieno' };

const day = (offset: number): string => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let database: TestDatabase;
let spans: SpansInMemory;
let service: RunningService;
let receiver: Server;
const arrivals: IncomingHttpHeaders[] = [];

const post = async (path: string, caller: object, body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(`http://127.0.0.1:${service.port}${path}`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${await signDevToken(caller as { sub: string }, JWT_SECRET)}`,
      'content-type': 'application/json',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  expect(response.status, `${path}: ${await response.clone().text()}`).toBeLessThan(300);
  return (await response.json()) as Record<string, string>;
};

/** Waits for what the test needs to have happened, however long the machine takes; the suite's timeout
 *  is the only limit. */
const until = async <T>(find: () => T | undefined): Promise<T> => {
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    await pause(50);
  }
};

describeWithKafka('tracing across the whole flow', () => {
  beforeAll(async () => {
    database = await createTestDatabase('tracing');
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        arrivals.push(req.headers);
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    spans = await recordSpansInMemory();
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: database.url,
      AUTH_JWT_SECRET: JWT_SECRET,
      KAFKA_BROKERS: testBrokers.join(','),
      KAFKA_TOPIC_PREFIX: TOPIC_PREFIX,
      KAFKA_TOPIC_PARTITIONS: '1',
      WEBHOOK_ALLOW_INSECURE: 'true',
      MONITOR_ENABLED: 'false',
    });
    service = await startService(ROLES, config, createLogger({ level: 'silent' }));
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
    await spans?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
    await database?.drop();
  });

  it('follows an evaluation from the caller’s traceparent to the webhook’s HTTP send', async () => {
    const farm = await post('/farms/create', owner, { name: 'Shamba' });
    await post(`/farms/${farm.farm_id}/access`, owner, { organization_id: insurer.org, purposes: ['insurance'] });
    const field = await post(`/farms/${farm.farm_id}/fields`, owner, {
      field_id: 'plot-1',
      name: 'North plot',
      area_ha: 2.5,
      location: { lat: -1.29, lon: 36.82 },
    });
    const policy = await post('/insurance/policies', insurer, {
      farm_id: farm.farm_id,
      field_id: field.field_id,
      perils: ['flood', 'storm'],
      sum_insured: 10000,
      currency: 'USD',
      term_start: day(-5),
      term_end: day(90),
    });
    // Five days of 40, 40, 40, 40, 20 mm against a 150 mm flood trigger: a breach once evaluated.
    await post('/insurance/index-readings', feed, {
      readings: [40, 40, 40, 40, 20].map((value, offset) => ({
        farm_id: farm.farm_id,
        field_id: field.field_id,
        index: 'rainfall_mm',
        date: day(offset - 5),
        value,
      })),
    });
    const { port } = receiver.address() as AddressInfo;
    await post('/insurance/webhooks/trigger-events', insurer, { url: `http://127.0.0.1:${port}/breaches` });

    await post(
      `/insurance/policies/${policy.policy_id}/evaluate`,
      insurer,
      {},
      { traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01` },
    );

    const inTrace = (): ReadableSpan[] =>
      spans.finished().filter((span) => span.spanContext().traceId === CALLER_TRACE_ID);
    const named = (name: string, parent: ReadableSpan | undefined, found = inTrace()): ReadableSpan | undefined =>
      found.find((span) => span.name === name && span.parentSpanContext?.spanId === parent?.spanContext().spanId);
    // The delivery span ends after the attempt is recorded, so it is the last of the chain to finish.
    await until(() => inTrace().find((span) => span.name === 'deliver webhook'));
    const trace = inTrace();

    const server = trace.find((span) => span.name === 'POST /insurance/policies/:policy_id/evaluate');
    expect(server?.kind).toBe(SpanKind.SERVER);
    expect(server?.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(server?.attributes['http.response.status_code']).toBe(200);
    const command = trace.find(
      (span) =>
        span.name === 'command' &&
        span.parentSpanContext?.spanId === server?.spanContext().spanId &&
        span.attributes['cropcover.stream_id'] === `policy-${policy.policy_id}`,
    );
    expect(command, 'the evaluation command').toBeDefined();
    const append = named('append', command, trace);
    expect(append, 'the append of the evaluation').toBeDefined();
    const send = named(`send ${TOPIC_PREFIX}cropcover.trigger-breaches.v1`, append, trace);
    expect(send?.kind).toBe(SpanKind.PRODUCER);
    const consume = named(`process ${TOPIC_PREFIX}cropcover.trigger-breaches.v1`, send, trace);
    expect(consume?.kind).toBe(SpanKind.CONSUMER);
    const delivery = named('deliver webhook', consume, trace);
    expect(delivery?.attributes['cropcover.delivery_outcome']).toBe('delivered');
    const httpSend = named('POST', delivery, trace);
    expect(httpSend?.kind).toBe(SpanKind.CLIENT);
    expect(httpSend?.attributes['http.response.status_code']).toBe(200);

    // The subscriber was sent the trace too, naming the client span as the parent of whatever it does.
    expect(arrivals.map((headers) => headers.traceparent)).toEqual([
      `00-${CALLER_TRACE_ID}-${httpSend?.spanContext().spanId}-01`,
    ]);
    // The projector's batches have many causes: they are traces of their own, linked to the append.
    const linkedBatches = spans
      .finished()
      .filter(
        (span) =>
          span.name === 'projection batch' &&
          span.links.some((link) => link.context.spanId === append?.spanContext().spanId),
      );
    expect(linkedBatches.flatMap((span) => String(span.attributes['cropcover.projections']).split(','))).toContain(
      'policies',
    );
    expect(linkedBatches.every((span) => span.spanContext().traceId !== CALLER_TRACE_ID)).toBe(true);
  }, 120_000);
});
