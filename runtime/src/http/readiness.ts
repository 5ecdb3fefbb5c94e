import type { RequestHandler } from 'express';
import { requestContextOf } from './request-context';

/** A dependency the service needs to serve traffic: the database, the event store, Kafka. */
export interface ReadinessCheck {
  readonly name: string;
  /** Resolves when the dependency answers; rejects (with the reason, for the log) when it does not. */
  check(): Promise<void>;
}

type CheckStatus = 'ok' | 'failing' | 'timeout';

const CHECK_TIMEOUT_MS = 2_000;

const run = async (check: ReadinessCheck): Promise<{ status: CheckStatus; error?: unknown }> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ status: CheckStatus }>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check.check().then(
        () => ({ status: 'ok' as const }),
        (error: unknown) => ({ status: 'failing' as const, error }),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
};

/**
 * `GET /readyz`: 200 when every check passes, else 503. The body names each check and its status; the
 * reasons go to the log only, since this endpoint is unauthenticated.
 */
export const readinessHandler =
  (checks: readonly ReadinessCheck[]): RequestHandler =>
  async (req, res) => {
    const outcomes = await Promise.all(checks.map(async (check) => ({ check, outcome: await run(check) })));
    const { logger } = requestContextOf(req);
    for (const { check, outcome } of outcomes)
      if (outcome.status !== 'ok')
        logger.warn({ check: check.name, status: outcome.status, err: outcome.error }, 'not ready');
    const ready = outcomes.every(({ outcome }) => outcome.status === 'ok');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ok' : 'unavailable',
      checks: Object.fromEntries(outcomes.map(({ check, outcome }) => [check.name, { status: outcome.status }])),
    });
  };
