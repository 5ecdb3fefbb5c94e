import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { type MetricsAccess, mayReadMetrics } from './metrics-access';
import { problemType } from './problem-handler';
import type { ReadinessCheck } from './readiness';

export interface OpsServer {
  readonly port: number;
  close(): Promise<void>;
}

const READINESS_TIMEOUT_MS = 2_000;

const checkStatus = async (check: ReadinessCheck): Promise<'ok' | 'failing' | 'timeout'> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check.check().then(
        () => 'ok' as const,
        () => 'failing' as const,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/** Processes that serve no API (projector, webhook dispatcher) serve only what operators scrape:
 *  `/healthz`, `/readyz` (the given checks, e.g. Kafka when configured) and `/metrics`, which asks for
 *  METRICS_TOKEN as the API's does (metrics-access.ts). */
export const startOpsServer = async (
  registry: Registry,
  port: number,
  metricsAccess: MetricsAccess,
  readiness: readonly ReadinessCheck[] = [],
): Promise<OpsServer> => {
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/healthz') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
      return;
    }
    if (req.method === 'GET' && req.url === '/readyz') {
      Promise.all(readiness.map(async (check) => [check.name, { status: await checkStatus(check) }] as const)).then(
        (outcomes) => {
          const ready = outcomes.every(([, outcome]) => outcome.status === 'ok');
          res
            .writeHead(ready ? 200 : 503, { 'content-type': 'application/json' })
            .end(JSON.stringify({ status: ready ? 'ok' : 'unavailable', checks: Object.fromEntries(outcomes) }));
        },
        () => res.writeHead(500).end(),
      );
      return;
    }
    if (req.method === 'GET' && req.url === '/metrics' && !mayReadMetrics(req.headers.authorization, metricsAccess)) {
      const detail = 'A metrics token is required.';
      res
        .writeHead(401, { 'content-type': 'application/problem+json', 'www-authenticate': 'Bearer realm="cropcover"' })
        .end(
          JSON.stringify({
            type: problemType('unauthorized'),
            title: 'Unauthorized',
            status: 401,
            detail,
            code: 'unauthorized',
          }),
        );
      return;
    }
    if (req.method === 'GET' && req.url === '/metrics') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        () => res.writeHead(500).end(),
      );
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};
