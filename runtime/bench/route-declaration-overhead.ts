import { FarmPathParams, Field, FieldRegisterRequest } from '@cropcover/contracts';
import { Router } from 'express';
import { SANDBOX_JWT_SECRET } from '../src/config';
import { signDevToken } from '../src/dev-token';
import { declareRoute } from '../src/http/routes/route';
import { routerOf } from '../src/http/routes/router-of';
import { parseBody, parseParams } from '../src/http/validation';
import { startTestApp } from '../src/testing/test-app';

// Issue 23: what a route declaration costs a request. The same write — a path parameter and a body
// validated with the project's zod schemas, a 201 with JSON — served by a hand-written express handler
// (the shape every route had before) and by a declared route (roles, validation and the answer done by
// runtime's `declareRoute`), on the real app stack (auth, rate limit, JSON body), in alternating rounds so
// both meet the same load on the machine.
// Run: npx tsx runtime/bench/route-declaration-overhead.ts   (BENCH_SECONDS 5, BENCH_ROUNDS 3, BENCH_CONNECTIONS 16)

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);

const answer = (farm_id: string, body: FieldRegisterRequest): Field => ({
  field_id: body.field_id ?? 'f1',
  farm_id,
  name: body.name,
  area_ha: body.area_ha,
  location: body.location,
  crop_type: body.crop_type ?? null,
  created_at: '2026-01-01T00:00:00.000Z',
});

const declared = declareRoute<
  object,
  {
    summary: '';
    request: { params: typeof FarmPathParams; body: typeof FieldRegisterRequest };
    success: { status: 201; schema: typeof Field; description: '' };
  }
>('POST /declared/{farm_id}/fields', {
  summary: '',
  request: { params: FarmPathParams, body: FieldRegisterRequest },
  success: { status: 201, schema: Field, description: '' },
}).handle(async ({ params, body }) => answer(params.farm_id, body));

const app = await startTestApp({
  env: { RATE_LIMIT_PER_MINUTE: '1000000', LOG_LEVEL: 'warn' },
  mount: (express) => {
    const router = Router();
    router.post('/hand-written/:farm_id/fields', async (req, res) => {
      const { farm_id } = parseParams(FarmPathParams, req);
      const body = parseBody(FieldRegisterRequest, req);
      res.status(201).json(answer(farm_id, body));
    });
    router.use(routerOf([declared], {}));
    express.use(router);
  },
});
const authorization = `Bearer ${await signDevToken({ sub: 'bench' }, SANDBOX_JWT_SECRET)}`;
const body = JSON.stringify({
  field_id: 'north',
  name: 'North plot',
  area_ha: 2.5,
  location: { lat: -1.29, lon: 36.82 },
});

/** CONNECTIONS clients posting back to back for SECONDS; requests per second and the p99 in ms. */
/** CONNECTIONS clients posting back to back for SECONDS; requests per second and the p99 in ms. */
const run = async (path: string) => {
  const latencies: number[] = [];
  const until = Date.now() + SECONDS * 1000;
  const client = async (): Promise<void> => {
    while (Date.now() < until) {
      const started = performance.now();
      const response = await fetch(`${app.baseUrl}${path}`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      if (response.status !== 201) throw new Error(`${path} answered ${response.status}`);
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  latencies.sort((a, b) => a - b);
  return { perSecond: latencies.length / SECONDS, p99: latencies[Math.floor(latencies.length * 0.99)]!.toFixed(1) };
};

try {
  for (let round = 1; round <= ROUNDS; round++) {
    const handWritten = await run('/hand-written/farm-1/fields');
    const declaredRoute = await run('/declared/farm-1/fields');
    console.info(
      `round ${round}: hand-written ${handWritten.perSecond.toFixed(0)} req/s (p99 ${handWritten.p99} ms), ` +
        `declared ${declaredRoute.perSecond.toFixed(0)} req/s (p99 ${declaredRoute.p99} ms), ` +
        `ratio ${(declaredRoute.perSecond / handWritten.perSecond).toFixed(3)}`,
    );
  }
} finally {
  await app.close();
}
