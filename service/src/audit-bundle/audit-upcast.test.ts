import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPostgresEventStore } from '@cropcover/eventstore';
import { createAuditIntegrator, directoryCheckpointSink } from '@cropcover/projector';
import { openProjectorTestDatabase, type ProjectorTestDatabase } from '@cropcover/projector/testing';
import { exportAuditBundle } from '@cropcover/read-store';
import { settableClock } from '@cropcover/runtime';
import { generateSignerKey, parseSignerKey, verifyAuditBundle } from '@cropcover/verifiable-log';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The research note's acceptance test 7 (tamper-evident-log.md §4): verification reads the stored bytes,
// replay reads them upcast, so adding an upcaster changes what replay sees and nothing that is verified.

const ORIGIN = 'cropcover.test/audit/v1';
const STREAM = 'policy-upcast';

describe('an upcaster added after the events were written', () => {
  let t: ProjectorTestDatabase;
  const signer = parseSignerKey(generateSignerKey(ORIGIN));

  beforeAll(async () => {
    t = await openProjectorTestDatabase('audit_upcast');
    for (let day = 0; day < 3; day++)
      await t.eventStore.append(
        STREAM,
        [
          {
            type: 'TriggerEvaluated',
            data: { day, amount: `${day}.50` },
            metadata: {
              event_id: crypto.randomUUID(),
              occurred_at: '2026-04-01T00:00:00.000Z',
              actor: 'test',
              organization_id: 'org-a',
              correlation_id: crypto.randomUUID(),
              causation_id: null,
              schema_version: 1,
              platform_version: '0.0.0-test',
            },
          },
        ],
        'any',
      );
    const integrator = createAuditIntegrator({
      pool: t.pool,
      signer,
      origin: ORIGIN,
      sink: directoryCheckpointSink(await mkdtemp(join(tmpdir(), 'cropcover-audit-upcast-'))),
      clock: settableClock(),
    });
    while ((await integrator.integrateOnce()) > 0);
    await integrator.publishPending();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('changes what replay reads, not the bundle or its verdict', async () => {
    const before = (await exportAuditBundle(t.pool, t.db, STREAM))!.bundle;
    expect(verifyAuditBundle(before, [signer.verifier])).toMatchObject({ ok: true, events: 3 });

    const upcasting = createPostgresEventStore({
      pool: t.pool,
      upcasters: [
        {
          eventType: 'TriggerEvaluated',
          fromSchemaVersion: 1,
          upcast: (data) => ({ ...(data as object), currency: 'USD' }),
        },
      ],
    });
    try {
      const replayed = await upcasting.readStream(STREAM);
      expect(replayed.map((event) => event.data)).toEqual(
        [0, 1, 2].map((day) => ({ day, amount: `${day}.50`, currency: 'USD' })),
      );
    } finally {
      await upcasting.close();
    }

    const after = (await exportAuditBundle(t.pool, t.db, STREAM))!.bundle;
    expect(after).toEqual(before);
    expect(after.events.map((event) => JSON.parse(event.data))).toEqual(
      [0, 1, 2].map((day) => ({ day, amount: `${day}.50` })),
    );
    expect(verifyAuditBundle(after, [signer.verifier])).toMatchObject({ ok: true, events: 3 });
  });
});
