import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHttpApp, createLogger, createMetrics, finalizeHttpApp, loadConfig } from '@cropcover/runtime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CONTENT_SECURITY_POLICY, consoleRouter } from './console-router';

// /console over real HTTP, from a built folder of the test's own (and from one never built).

const serve = async (directory: string): Promise<{ baseUrl: string; server: Server }> => {
  const app = createHttpApp({
    config: loadConfig({ AUTH_JWT_SECRET: 'console-router-test-secret-of-at-least-32-characters' }),
    logger: createLogger({ level: 'silent' }),
    metrics: createMetrics(),
    readiness: [],
    openApiDocument: {},
    asyncApiDocument: {},
    publicPages: { '/console': consoleRouter(directory) },
  });
  finalizeHttpApp(app);
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return { baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

describe('the console’s files at /console', () => {
  let built: string;
  let served: { baseUrl: string; server: Server };
  let unbuilt: { baseUrl: string; server: Server };

  beforeAll(async () => {
    built = await mkdtemp(join(tmpdir(), 'console-router-'));
    await mkdir(join(built, 'assets'));
    await writeFile(join(built, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(join(built, 'assets', 'index-abc123.js'), 'console.log(1);');
    [served, unbuilt] = await Promise.all([serve(built), serve(join(built, 'never-built'))]);
  });
  afterAll(async () => {
    for (const { server } of [served, unbuilt]) await new Promise((resolve) => server.close(resolve));
    await rm(built, { recursive: true, force: true });
  });

  it('answers the page to anyone, under a policy that allows nothing from another origin', async () => {
    const response = await fetch(`${served.baseUrl}/console/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>console</title>');
    expect(response.headers.get('content-security-policy')).toBe(CONSOLE_CONTENT_SECURITY_POLICY);
    expect(CONSOLE_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers the same page at every path of the console’s own router', async () => {
    for (const path of ['/console', '/console/policies/p-1', '/console/anything/else']) {
      const response = await fetch(`${served.baseUrl}${path}`);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toContain('<title>console</title>');
    }
  });

  it('keeps assets, named by their content, for a year, and has no fallback for a missing one', async () => {
    const asset = await fetch(`${served.baseUrl}/console/assets/index-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${served.baseUrl}/console/assets/missing.js`)).status).toBe(404);
  });

  it('says so with a problem when the console was never built', async () => {
    const response = await fetch(`${unbuilt.baseUrl}/console/`);
    expect(response.status).toBe(503);
    expect(response.headers.get('content-type')).toContain('application/problem+json');
    expect(await response.json()).toMatchObject({ code: 'console_not_built' });
  });
});
