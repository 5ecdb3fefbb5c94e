import type { AddressInfo } from 'node:net';
import { migrateReadModels, type ReadModels } from '@cropcover/read-store';
import {
  createHttpApp,
  createKysely,
  createLogger,
  createMetrics,
  createPool,
  finalizeHttpApp,
  loadConfig,
  ProblemError,
  settableClock,
  signDevToken,
} from '@cropcover/runtime';
import { createTestDatabase, type TestDatabase } from '@cropcover/runtime/testing';
import { Router } from 'express';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idempotencyKey } from './idempotency-key';
import { IDEMPOTENCY_KEY_TTL_MS, IN_FLIGHT_LEASE_MS } from './idempotency-records';

const SECRET = 'idempotency-test-secret-of-at-least-32-characters';

// The middleware on the real HTTP stack against real PostgreSQL, in front of routes that count how often
// they really ran and can be held mid-request, so "in flight" is a state the test controls.
describe('Idempotency-Key', () => {
  let database: TestDatabase;
  let db: Kysely<ReadModels>;
  let baseUrl: string;
  let close: () => Promise<void>;
  const clock = settableClock(new Date());
  let runs: number;
  let failNext: boolean;
  let held: Promise<void> | undefined;

  /** The next request to reach a route waits until the returned function is called. */
  const holdNextRequest = (): (() => void) => {
    let release = (): void => undefined;
    held = new Promise((resolve) => {
      release = resolve;
    });
    return release;
  };

  const post = async (
    path: string,
    {
      sub = 'caller-1',
      org,
      roles,
      key,
      body = { name: 'Shamba' },
      raw,
    }: { sub?: string; org?: string; roles?: string[]; key?: string; body?: unknown; raw?: string } = {},
  ) => {
    const token = await signDevToken({ sub, ...(org === undefined ? {} : { org }), roles: roles ?? [] }, SECRET);
    const response = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: raw ?? JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
  };
  const storedKeys = () => db.selectFrom('idempotency_keys').selectAll().orderBy('caller').orderBy('key').execute();

  beforeAll(async () => {
    database = await createTestDatabase('idempotency');
    db = createKysely<ReadModels>(createPool(database.url, createLogger({ level: 'silent' }), { max: 8 }));
    await migrateReadModels(db);
    const app = createHttpApp({
      config: loadConfig({ AUTH_JWT_SECRET: SECRET, RATE_LIMIT_PER_MINUTE: '100000' }),
      logger: createLogger({ level: 'silent' }),
      metrics: createMetrics(),
      readiness: [],
      openApiDocument: {},
      asyncApiDocument: {},
    });
    const router = Router();
    router.use(idempotencyKey({ db, clock }));
    router.post('/things', async (req, res) => {
      runs += 1;
      const run = runs;
      const wait = held;
      held = undefined;
      await wait;
      res
        .status(201)
        .location(`/things/${run}`)
        .setHeader('ETag', `"${run}"`)
        .setHeader('Consistency-Token', `0:${run}`)
        .json({ run, received: req.body });
    });
    router.post('/crashes-once', (_req, res) => {
      runs += 1;
      if (failNext) {
        failNext = false;
        throw new Error('the process lost its database half-way');
      }
      res.status(201).json({ run: runs });
    });
    router.post('/refuses', () => {
      runs += 1;
      throw ProblemError.unprocessable('farm_inactive', 'The farm is inactive.');
    });
    router.post('/conflicts', () => {
      runs += 1;
      throw ProblemError.conflict('concurrency_conflict', 'The resource kept changing under this request.');
    });
    router.post('/accepts', (_req, res) => {
      runs += 1;
      res.status(204).end();
    });
    app.use(router);
    finalizeHttpApp(app);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
  });
  afterAll(async () => {
    await close?.();
    await db?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await db.deleteFrom('idempotency_keys').execute();
    runs = 0;
    failNext = false;
    held = undefined;
    clock.set(new Date());
  });

  it('replays the first answer to the same request: status, body and the headers that matter', async () => {
    const first = await post('/things', { key: 'k-1', body: { name: 'Shamba', size: 2 } });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post('/things', { key: 'k-1', raw: '{ "size": 2,\n  "name": "Shamba" }' });
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    for (const header of ['content-type', 'location', 'etag', 'consistency-token'])
      expect(again.headers.get(header)).toBe(first.headers.get(header));
    expect(first.headers.get('location')).toBe('/things/1');
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(1);
  });

  it('accepts the key as an RFC 8941 string too: "k" and k name the same key', async () => {
    await post('/things', { key: '"quoted-key"' });
    const again = await post('/things', { key: 'quoted-key' });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(1);
  });

  it('refuses the key with another body or on another path (422) and runs nothing', async () => {
    const first = await post('/things', { key: 'k-2', body: { name: 'Shamba' } });
    const before = await storedKeys();
    const otherBody = await post('/things', { key: 'k-2', body: { name: 'Other' } });
    expect(otherBody.status).toBe(422);
    expect(otherBody.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(otherBody.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(otherBody.body.detail).toContain('POST /things');
    const otherPath = await post('/accepts', { key: 'k-2', body: { name: 'Shamba' } });
    expect(otherPath.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(runs).toBe(1);
    expect(await storedKeys()).toEqual(before);
    expect((await post('/things', { key: 'k-2', body: { name: 'Shamba' } })).text).toBe(first.text);
  });

  it('answers 409 while the first request with the key is still running, then replays its answer', async () => {
    const release = holdNextRequest();
    const first = post('/things', { key: 'k-3' });
    await expect.poll(() => runs).toBe(1);
    const during = await post('/things', { key: 'k-3' });
    expect(during.status).toBe(409);
    expect(during.body).toMatchObject({ status: 409, code: 'idempotency_key_in_flight' });
    expect(during.headers.get('retry-after')).toBe('1');
    release();
    const answered = await first;
    expect(answered.status).toBe(201);
    const after = await post('/things', { key: 'k-3' });
    expect(after.text).toBe(answered.text);
    expect(runs).toBe(1);
  });

  it('lets exactly one of many simultaneous first uses of a key run', async () => {
    const responses = await Promise.all(Array.from({ length: 12 }, () => post('/things', { key: 'k-race' })));
    expect(runs).toBe(1);
    const ran = responses.filter((response) => response.status === 201 && !response.headers.get('idempotent-replayed'));
    expect(ran).toHaveLength(1);
    for (const response of responses) {
      if (response.status === 201) expect(response.text).toBe(ran[0]!.text);
      else expect(response.body).toMatchObject({ status: 409, code: 'idempotency_key_in_flight' });
    }
  });

  it('keeps each caller’s keys apart', async () => {
    const mine = await post('/things', { sub: 'caller-1', key: 'shared', body: { name: 'A' } });
    const theirs = await post('/things', { sub: 'caller-2', key: 'shared', body: { name: 'B' } });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body).toMatchObject({ run: 2, received: { name: 'B' } });
    expect(runs).toBe(2);
  });

  it('keeps one caller’s keys apart per organization: another org_id runs afresh', async () => {
    const first = await post('/things', { org: 'org-a', roles: ['insurer'], key: 'shared', body: { name: 'A' } });
    const other = await post('/things', { org: 'org-b', roles: ['insurer'], key: 'shared', body: { name: 'A' } });
    expect([first.status, other.status]).toEqual([201, 201]);
    expect(other.headers.get('idempotent-replayed')).toBeNull();
    expect(other.body).toMatchObject({ run: 2 });
    const again = await post('/things', { org: 'org-a', roles: ['insurer'], key: 'shared', body: { name: 'A' } });
    expect(again.text).toBe(first.text);
    expect(runs).toBe(2);
  });

  it('replays only to the roles the answer was made for; other roles get 422 and run nothing', async () => {
    await post('/things', { org: 'org-a', roles: ['insurer', 'auditor'], key: 'k-roles' });
    const before = await storedKeys();
    const demoted = await post('/things', { org: 'org-a', roles: ['auditor'], key: 'k-roles' });
    expect(demoted.status).toBe(422);
    expect(demoted.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(demoted.body.detail).toContain('other roles');
    const reordered = await post('/things', { org: 'org-a', roles: ['auditor', 'insurer'], key: 'k-roles' });
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(runs).toBe(1);
    expect(await storedKeys()).toEqual(before);
  });

  it.each([
    ['empty', ''],
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a control character', 'a\tb'],
    ['with a non-ASCII character', 'cl\u00e9'],
  ])('refuses a key that is %s with 400 and runs nothing', async (_name, key) => {
    const response = await post('/things', { key });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: 400, code: 'invalid_idempotency_key' });
    expect(runs).toBe(0);
    expect(await storedKeys()).toEqual([]);
  });

  it('takes a 255-character key', async () => {
    expect((await post('/things', { key: 'k'.repeat(255) })).status).toBe(201);
    expect(await storedKeys()).toHaveLength(1);
  });

  it('treats a key past its 24 hours as new, whatever body it comes with', async () => {
    await post('/things', { key: 'k-old', body: { name: 'A' } });
    clock.advance(IDEMPOTENCY_KEY_TTL_MS - 1);
    expect((await post('/things', { key: 'k-old', body: { name: 'A' } })).headers.get('idempotent-replayed')).toBe(
      'true',
    );
    clock.advance(1);
    const fresh = await post('/things', { key: 'k-old', body: { name: 'B' } });
    expect(fresh.status).toBe(201);
    expect(fresh.body).toMatchObject({ run: 2, received: { name: 'B' } });
    expect(await storedKeys()).toHaveLength(1);
  });

  it('removes other callers’ expired keys as new keys come in', async () => {
    await post('/things', { sub: 'caller-1', key: 'k-a' });
    clock.advance(IDEMPOTENCY_KEY_TTL_MS);
    await post('/things', { sub: 'caller-2', key: 'k-b' });
    expect((await storedKeys()).map((row) => row.key)).toEqual(['k-b']);
  });

  it('stores no 5xx: a retry after a failure runs again', async () => {
    failNext = true;
    const failed = await post('/crashes-once', { key: 'k-5xx' });
    expect(failed.status).toBe(500);
    expect(await storedKeys()).toEqual([]);
    const retried = await post('/crashes-once', { key: 'k-5xx' });
    expect(retried.status).toBe(201);
    expect(runs).toBe(2);
  });

  it('stores no answer that asks for a retry (409): the retry runs again', async () => {
    expect((await post('/conflicts', { key: 'k-409' })).status).toBe(409);
    expect((await post('/conflicts', { key: 'k-409' })).status).toBe(409);
    expect(runs).toBe(2);
    expect(await storedKeys()).toEqual([]);
  });

  it('replays a refusal (4xx) as the outcome of the request, and an empty 204', async () => {
    const refused = await post('/refuses', { key: 'k-422' });
    const again = await post('/refuses', { key: 'k-422' });
    expect(refused.body).toMatchObject({ status: 422, code: 'farm_inactive' });
    expect(again.status).toBe(422);
    expect(again.text).toBe(refused.text);
    expect(again.headers.get('content-type')).toBe(refused.headers.get('content-type'));
    const accepted = await post('/accepts', { key: 'k-204' });
    const acceptedAgain = await post('/accepts', { key: 'k-204' });
    expect([accepted.status, acceptedAgain.status]).toEqual([204, 204]);
    expect(acceptedAgain.text).toBe('');
    expect(runs).toBe(2);
  });

  it('lets a retry take over a key whose request never answered, and keeps the retry’s answer', async () => {
    const release = holdNextRequest();
    const abandoned = post('/things', { key: 'k-lease' });
    await expect.poll(() => runs).toBe(1);
    expect((await post('/things', { key: 'k-lease' })).status).toBe(409);
    clock.advance(IN_FLIGHT_LEASE_MS);
    const retry = await post('/things', { key: 'k-lease' });
    expect(retry.body).toMatchObject({ run: 2 });
    release();
    expect((await abandoned).body).toMatchObject({ run: 1 });
    expect((await post('/things', { key: 'k-lease' })).text).toBe(retry.text);
  });

  it('lets only the same request take over a lapsed key: its first run may have written', async () => {
    const release = holdNextRequest();
    const abandoned = post('/things', { key: 'k-lapsed' });
    await expect.poll(() => runs).toBe(1);
    clock.advance(IN_FLIGHT_LEASE_MS);
    const other = await post('/things', { key: 'k-lapsed', body: { name: 'Another farm' } });
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ code: 'idempotency_key_reused' });
    expect(runs).toBe(1);
    release();
    await abandoned;
  });

  it('leaves requests without a key alone', async () => {
    await post('/things');
    await post('/things');
    expect(runs).toBe(2);
    expect(await storedKeys()).toEqual([]);
  });
});
