import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Express, Router } from 'express';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settableClock } from '../clock';
import { SANDBOX_JWT_SECRET } from '../config';
import { signDevToken } from '../dev-token';
import { startTestApp, type TestApp } from '../testing/test-app';
import { principalOf, requireOrganization, requireRoles } from './principal';

const mountProbes = (express: Express): void => {
  const router = Router();
  router.get('/me', (req, res) => {
    res.json(principalOf(req));
  });
  router.get('/insurer-only', (req, res) => {
    requireRoles(principalOf(req), 'insurer');
    res.json({ ok: true });
  });
  router.get('/org-only', (req, res) => {
    res.json({ organization_id: requireOrganization(principalOf(req)) });
  });
  express.use(router);
};

const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
const secret = new TextEncoder().encode(SANDBOX_JWT_SECRET);
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600;

const expectUnauthorized = async (response: Response, code: string, invalidToken: boolean) => {
  expect(response.status).toBe(401);
  const challenge = response.headers.get('www-authenticate') ?? '';
  expect(challenge).toMatch(/^Bearer realm="cropcover"/);
  if (invalidToken) expect(challenge).toContain('error="invalid_token"');
  else expect(challenge).not.toContain('error=');
  expect(await response.json()).toMatchObject({ status: 401, code });
};

describe('HS256 authentication', () => {
  let app: TestApp;
  const get = (path: string, token?: string) =>
    fetch(`${app.baseUrl}${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } });

  beforeAll(async () => {
    app = await startTestApp({ mount: mountProbes });
  });
  afterAll(() => app.close());

  it('puts the principal of a valid token on the request', async () => {
    const token = await signDevToken(
      { sub: 'u1', org: 'org1', roles: ['insurer'], givenName: 'Ada', familyName: 'Obi', phoneNumber: '+2547' },
      SANDBOX_JWT_SECRET,
    );
    const response = await get('/me', token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      sub: 'u1',
      organizationId: 'org1',
      roles: ['insurer'],
      givenName: 'Ada',
      familyName: 'Obi',
      phoneNumber: '+2547',
    });
  });

  it('defaults a token without org_id and roles to none', async () => {
    const response = await get('/me', await signDevToken({ sub: 'u2' }, SANDBOX_JWT_SECRET));
    expect(await response.json()).toEqual({ sub: 'u2', organizationId: null, roles: [] });
  });

  it('answers a request without a token with 401 and a bare Bearer challenge', async () => {
    await expectUnauthorized(await get('/me'), 'unauthorized', false);
    const basic = await fetch(`${app.baseUrl}/me`, { headers: { authorization: 'Basic dTpw' } });
    await expectUnauthorized(basic, 'unauthorized', false);
  });

  it('rejects an expired token', async () => {
    const token = await signDevToken({ sub: 'u1', expiresIn: -60 }, SANDBOX_JWT_SECRET);
    await expectUnauthorized(await get('/me', token), 'token_expired', true);
  });

  it('rejects a token it accepted before once the clock passes its expiry', async () => {
    const clock = settableClock(new Date());
    const clocked = await startTestApp({ mount: mountProbes, clock });
    try {
      const token = await signDevToken({ sub: 'u1', expiresIn: 30 }, SANDBOX_JWT_SECRET);
      const me = () => fetch(`${clocked.baseUrl}/me`, { headers: { authorization: `Bearer ${token}` } });
      expect((await me()).status).toBe(200);
      expect((await me()).status).toBe(200);
      clock.advance(31_000);
      await expectUnauthorized(await me(), 'token_expired', true);
    } finally {
      await clocked.close();
    }
  });

  it('rejects a token whose claims could not be stored (NUL, unpaired surrogates)', async () => {
    for (const claims of [{ sub: 'u\u0000' }, { sub: 'u1', givenName: 'Ada\uD800' }, { sub: 'u1', roles: ['a\u0000'] }])
      await expectUnauthorized(await get('/me', await signDevToken(claims, SANDBOX_JWT_SECRET)), 'invalid_token', true);
  });

  it('rejects a malformed token', async () => {
    await expectUnauthorized(await get('/me', 'not.a.jwt'), 'invalid_token', true);
    await expectUnauthorized(await get('/me', 'a b'), 'invalid_token', true);
  });

  it('rejects a token signed with another secret', async () => {
    const token = await signDevToken({ sub: 'u1' }, 'another-secret-of-sufficient-length!!');
    await expectUnauthorized(await get('/me', token), 'invalid_token', true);
  });

  it('rejects an unsigned token (alg none)', async () => {
    const token = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url({ sub: 'admin', roles: ['admin'], exp: inAnHour() })}.`;
    await expectUnauthorized(await get('/me', token), 'invalid_token', true);
  });

  it('rejects a correctly signed token with another algorithm', async () => {
    const token = await new SignJWT({ sub: 'u1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setExpirationTime('1h')
      .sign(secret);
    await expectUnauthorized(await get('/me', token), 'invalid_token', true);
  });

  it('rejects an RS256 token when only HS256 is configured', async () => {
    const { privateKey } = await generateKeyPair('RS256');
    const token = await new SignJWT({ sub: 'u1' })
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime('1h')
      .sign(privateKey);
    await expectUnauthorized(await get('/me', token), 'invalid_token', true);
  });

  it('rejects a token without sub, or with roles that are not a list', async () => {
    const noSub = await new SignJWT({ roles: ['admin'] })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(secret);
    const noSubResponse = await get('/me', noSub);
    await expectUnauthorized(noSubResponse.clone(), 'invalid_token', true);
    expect(((await noSubResponse.json()) as { detail: string }).detail).toContain('"sub"');
    const badRoles = await new SignJWT({ sub: 'u1', roles: 'admin' })
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(secret);
    await expectUnauthorized(await get('/me', badRoles), 'invalid_token', true);
  });

  it('never logs the token', async () => {
    const token = await signDevToken({ sub: 'u-logged' }, SANDBOX_JWT_SECRET);
    await get('/me', token);
    expect(app.rawLogs()).toContain('"path":"/me"');
    expect(app.rawLogs()).not.toContain(token.split('.')[2]);
  });

  describe('role and organization helpers', () => {
    it.each([
      [['insurer'], 200],
      [['admin'], 200],
      [['auditor', 'insurer'], 200],
      [['auditor'], 403],
      [[], 403],
    ])('requireRoles(insurer) with roles %j → %i', async (roles, status) => {
      const response = await get('/insurer-only', await signDevToken({ sub: 'u1', roles }, SANDBOX_JWT_SECRET));
      expect(response.status).toBe(status);
      if (status === 403) expect(await response.json()).toMatchObject({ code: 'forbidden' });
    });

    it('requireOrganization returns the org id or answers 403 organization_required', async () => {
      const withOrg = await get('/org-only', await signDevToken({ sub: 'u1', org: 'org9' }, SANDBOX_JWT_SECRET));
      expect(await withOrg.json()).toEqual({ organization_id: 'org9' });
      const withoutOrg = await get(
        '/org-only',
        await signDevToken({ sub: 'u1', roles: ['admin'] }, SANDBOX_JWT_SECRET),
      );
      expect(withoutOrg.status).toBe(403);
      expect(await withoutOrg.json()).toMatchObject({ code: 'organization_required' });
    });
  });
});

describe('issuer and audience', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { AUTH_ISSUER: 'https://idp.test/', AUTH_AUDIENCE: 'cropcover' },
      mount: mountProbes,
    });
  });
  afterAll(() => app.close());

  it('accepts matching claims and rejects others', async () => {
    const sign = (issuer: string, audience: string) =>
      signDevToken({ sub: 'u1', issuer, audience }, SANDBOX_JWT_SECRET).then((token) =>
        fetch(`${app.baseUrl}/me`, { headers: { authorization: `Bearer ${token}` } }),
      );
    expect((await sign('https://idp.test/', 'cropcover')).status).toBe(200);
    await expectUnauthorized(await sign('https://evil.test/', 'cropcover'), 'invalid_token', true);
    await expectUnauthorized(await sign('https://idp.test/', 'other'), 'invalid_token', true);
  });
});

describe('JWKS authentication', () => {
  let app: TestApp;
  let jwks: Server;
  let privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

  beforeAll(async () => {
    const pair = await generateKeyPair('ES256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'ES256', use: 'sig' };
    jwks = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const { port } = jwks.address() as AddressInfo;
    app = await startTestApp({ env: { AUTH_JWKS_URL: `http://127.0.0.1:${port}/jwks.json` }, mount: mountProbes });
  });
  afterAll(async () => {
    await app.close();
    await new Promise((resolve) => jwks.close(resolve));
  });

  const get = (token: string) => fetch(`${app.baseUrl}/me`, { headers: { authorization: `Bearer ${token}` } });

  it('accepts a token signed by a key of the set', async () => {
    const token = await new SignJWT({ sub: 'u1', org_id: 'org1', roles: ['auditor'] })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setExpirationTime('1h')
      .sign(privateKey);
    const response = await get(token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ sub: 'u1', organizationId: 'org1', roles: ['auditor'] });
  });

  it('rejects an HS256 dev token', async () => {
    await expectUnauthorized(await get(await signDevToken({ sub: 'u1' }, SANDBOX_JWT_SECRET)), 'invalid_token', true);
  });
});

describe('JWKS that cannot be fetched', () => {
  const tokenFromUnknownIssuer = async () => {
    const { privateKey } = await generateKeyPair('ES256');
    return new SignJWT({ sub: 'u1' }).setProtectedHeader({ alg: 'ES256' }).setExpirationTime('1h').sign(privateKey);
  };

  const expectUnavailable = async (jwksUrl: string) => {
    const app = await startTestApp({ env: { AUTH_JWKS_URL: jwksUrl }, mount: mountProbes });
    try {
      const response = await fetch(`${app.baseUrl}/me`, {
        headers: { authorization: `Bearer ${await tokenFromUnknownIssuer()}` },
      });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toMatchObject({ code: 'authentication_unavailable' });
    } finally {
      await app.close();
    }
  };

  it('answers 503 authentication_unavailable when nothing answers', async () => {
    // A port that was just free: nothing listens there.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    await expectUnavailable(`http://127.0.0.1:${port}/jwks.json`);
  });

  it('answers 503 authentication_unavailable when the provider fails', async () => {
    const failing = createServer((_req, res) => {
      res.statusCode = 500;
      res.end('oops');
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const { port } = failing.address() as AddressInfo;
    try {
      await expectUnavailable(`http://127.0.0.1:${port}/jwks.json`);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
  });
});
