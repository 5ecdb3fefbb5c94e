import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookSender } from './webhook-request';

// The address guard on a real connection: a receiver on loopback is reached only when insecure targets
// are allowed, whether it is named by a literal IP or by a name that resolves to it (checked at connect
// time), and a redirect is an answer, not something to follow.

describe('sending a webhook', () => {
  let server: Server;
  let port: number;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requests += 1;
      res.writeHead(302, { location: 'http://example.com/' }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (allowInsecure: boolean, host: string) =>
    createWebhookSender(allowInsecure)({
      url: `http://${host}:${port}/hook`,
      eventId: 'ev-1',
      body: '{}',
      secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      now: new Date('2026-03-01T00:00:00.000Z'),
      signal: new AbortController().signal,
    });

  it('refuses loopback, named or literal, without WEBHOOK_ALLOW_INSECURE; nothing reaches it', async () => {
    // The subscriber is told only that the connection failed; the address is for the operator's log.
    const named = await send(false, 'localhost');
    expect(named).toMatchObject({
      statusCode: null,
      error: 'could not connect to the receiver',
      detail: expect.stringContaining('non-public address'),
    });
    const literal = await send(false, '127.0.0.1');
    expect(literal).toMatchObject({
      statusCode: null,
      error: 'could not connect to the receiver',
      detail: '127.0.0.1 is not a public address',
    });
    expect(requests).toBe(0);
  });

  it('tells an unknown name and a refused connection apart only in the detail', async () => {
    const unknown = await send(true, 'no-such-host.invalid');
    const refused = await createWebhookSender(true)({
      url: 'http://127.0.0.1:1/hook',
      eventId: 'ev-2',
      body: '{}',
      secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}`,
      now: new Date('2026-03-01T00:00:00.000Z'),
      signal: new AbortController().signal,
    });
    expect(unknown.error).toBe('could not connect to the receiver');
    expect(refused.error).toBe('could not connect to the receiver');
    expect(unknown.detail).toMatch(/ENOTFOUND|EAI_AGAIN/);
    expect(refused.detail).toMatch(/ECONNREFUSED/);
  });

  it('reaches it when allowed, and does not follow a redirect', async () => {
    expect(await send(true, 'localhost')).toMatchObject({ statusCode: 302, error: null });
    expect(requests).toBe(1);
  });
});
