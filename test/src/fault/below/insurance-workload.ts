import { type ApiResponse, apiClient, type Caller } from '../../support/api-client';
import { addDays, today } from '../../support/calendar';

// The workload every fault strikes: clients that behave like real ones — a keyed write is retried on a
// lost connection, a 5xx or a 409 with the same Idempotency-Key; an unkeyed farm create is sent once —
// register farms and fields, issue policies, post a storm and evaluate it into a payout, while the
// projections, the audit integrator, the monitor and the webhook dispatcher run beside them. Every
// answer is noted, so a scenario can say what was acknowledged, refused, and how long each wait was.

export const insurer: Caller = { sub: 'fault-underwriter', org: 'org-faults', roles: ['insurer'] };
const feed: Caller = { sub: 'fault-feed', org: 'org-faults', roles: ['data_provider'] };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** No request of the workload waits longer than this for an answer: one that would is noted as stalled. */
export const STALLED_AFTER_MS = 20_000;
/** How long a client keeps retrying one keyed request before it gives up (and the scenario fails). */
const CLIENT_PATIENCE_MS = 90_000;

export interface Answer {
  readonly role: 'commandApi' | 'queryApi';
  readonly what: string;
  readonly status: number | 'lost' | 'stalled';
  readonly retryAfter: string | null;
  readonly code: string | undefined;
  readonly startedAt: number;
  readonly ms: number;
}

export interface Told {
  readonly farms: { farmId: string; name: string; owner: Caller; token: string }[];
  readonly policies: { policyId: string; farmId: string; token: string }[];
  readonly payouts: { policyId: string; amountMinor: number; answeredAt: number }[];
  readonly answers: Answer[];
  /** Keyed requests that never got a final answer within the client's patience. */
  readonly unanswered: string[];
  /** Farm creates each owner asked for (a keyed one once, however often it was retried): the most farms
   *  the log may hold for them. */
  readonly farmCreates: Map<string, number>;
}

export const newTold = (): Told => ({
  farms: [],
  policies: [],
  payouts: [],
  answers: [],
  unanswered: [],
  farmCreates: new Map(),
});

const isRetryable = (status: number): boolean => status >= 500 || status === 409;

export interface Workload {
  readonly told: Told;
  /** Runs `clients` clients until `stop()`; resolves when every client has finished its request. */
  run(clients: number): { stop(): Promise<void> };
  send: (
    role: 'commandApi' | 'queryApi',
    method: 'GET' | 'POST',
    path: string,
    caller: Caller,
    options?: { body?: unknown; key?: string; retried?: boolean },
  ) => Promise<ApiResponse | undefined>;
}

export const insuranceWorkload = (urlOf: (role: 'commandApi' | 'queryApi') => string, label: string): Workload => {
  const told = newTold();

  const once = async (
    role: 'commandApi' | 'queryApi',
    method: string,
    path: string,
    caller: Caller,
    options: { body?: unknown; headers?: Record<string, string> },
  ): Promise<ApiResponse | undefined> => {
    const startedAt = performance.now();
    const note = (status: Answer['status'], response?: ApiResponse) =>
      told.answers.push({
        role,
        what: `${method} ${path}`,
        status,
        retryAfter: response?.headers.get('retry-after') ?? null,
        code: response?.body?.code,
        startedAt,
        ms: performance.now() - startedAt,
      });
    try {
      const response = await apiClient(urlOf(role)).request(method, path, {
        caller,
        body: options.body,
        headers: options.headers,
        signal: AbortSignal.timeout(STALLED_AFTER_MS),
      });
      note(response.status, response);
      return response;
    } catch (error) {
      note((error as Error).name === 'TimeoutError' ? 'stalled' : 'lost');
      return undefined;
    }
  };

  const send: Workload['send'] = async (role, method, path, caller, options = {}) => {
    const retried = options.retried ?? options.key !== undefined;
    const headers = options.key ? { 'Idempotency-Key': options.key } : undefined;
    const deadline = Date.now() + CLIENT_PATIENCE_MS;
    for (let attempt = 0; ; attempt += 1) {
      const response = await once(role, method, path, caller, { body: options.body, headers });
      if (!retried) return response;
      if (response && !isRetryable(response.status)) return response;
      if (Date.now() > deadline) {
        told.unanswered.push(`${method} ${path}`);
        return undefined;
      }
      // Sooner than a Retry-After asks: the scenario wants to see the first answer after recovery.
      await sleep(Math.min(1_000, 100 * 2 ** attempt));
    }
  };

  const tokenOf = (response: ApiResponse): string => response.headers.get('consistency-token') ?? '';

  /** One client's story, over and over: a farm, a field, a policy on it, a storm, an evaluation that pays. */
  const clientLoop = async (client: number, keepGoing: () => boolean): Promise<void> => {
    const owner: Caller = { sub: `${label}-farmer-${client}`, givenName: 'Wanjiru', familyName: `Client${client}` };
    for (let round = 0; keepGoing(); round += 1) {
      const story = `${label}-${client}-${round}`;
      const farmName = `Fault farm ${story}`;
      // Every third farm is created without a key, as a careless client would: sent once, never retried.
      const farmKey = round % 3 === 2 ? undefined : `farm-${story}`;
      told.farmCreates.set(owner.sub, (told.farmCreates.get(owner.sub) ?? 0) + 1);
      const farm = await send('commandApi', 'POST', '/farms/create', owner, { body: { name: farmName }, key: farmKey });
      if (farm?.status !== 201) continue;
      const farmId: string = farm.body.farm_id;
      told.farms.push({ farmId, name: farmName, owner, token: tokenOf(farm) });
      const field = await send('commandApi', 'POST', `/farms/${farmId}/fields`, owner, {
        body: { name: `Plot ${story}`, area_ha: 1.5, location: { lat: -1.29, lon: 36.82 } },
        key: `field-${story}`,
      });
      if (field?.status !== 201) continue;
      const granted = await send('commandApi', 'POST', `/farms/${farmId}/access`, owner, {
        body: { organization_id: insurer.org, purposes: ['insurance'] },
        key: `grant-${story}`,
      });
      if (granted?.status !== 201) continue;
      const policy = await send('commandApi', 'POST', '/insurance/policies', insurer, {
        body: {
          farm_id: farmId,
          field_id: field.body.field_id,
          perils: ['storm'],
          sum_insured: 10_000,
          currency: 'USD',
          term_start: addDays(today(), -5),
          term_end: addDays(today(), 90),
        },
        key: `policy-${story}`,
      });
      if (policy?.status !== 201) continue;
      const policyId: string = policy.body.policy_id;
      told.policies.push({ policyId, farmId, token: tokenOf(policy) });
      const readings = await send('commandApi', 'POST', '/insurance/index-readings', feed, {
        body: {
          readings: [
            {
              farm_id: farmId,
              field_id: field.body.field_id,
              index: 'wind_speed_ms',
              date: addDays(today(), -1),
              value: 32.5,
            },
          ],
        },
        retried: true,
      });
      if (readings?.status !== 200) continue;
      const evaluated = await send('commandApi', 'POST', `/insurance/policies/${policyId}/evaluate`, insurer, {
        body: {},
        key: `evaluate-${story}`,
      });
      if (evaluated?.status === 200 && (evaluated.body.payout_count ?? 0) > 0)
        told.payouts.push({
          policyId,
          amountMinor: Math.round(evaluated.body.total_payout * 100),
          answeredAt: performance.now(),
        });
      await send('queryApi', 'GET', `/insurance/policies/${policyId}`, insurer, { retried: true });
    }
  };

  return {
    told,
    send,
    run: (clients) => {
      let working = true;
      const loops = Array.from({ length: clients }, (_, client) => clientLoop(client, () => working));
      return {
        stop: async () => {
          working = false;
          await Promise.all(loops);
        },
      };
    },
  };
};
