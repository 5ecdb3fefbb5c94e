import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppEnv } from '../config';

export interface MetricsAccess {
  readonly appEnv: AppEnv;
  readonly metricsToken: string | undefined;
}

const digest = (text: string): Buffer => createHash('sha256').update(text).digest();

/** Whether a request with this Authorization header may read /metrics. With METRICS_TOKEN set it must
 *  be `Bearer <token>`; without one the sandbox is open and production closed: its metrics name routes,
 *  volumes and error rates, nothing for the public. Compared as digests, in constant time. */
export const mayReadMetrics = (authorization: string | undefined, { appEnv, metricsToken }: MetricsAccess): boolean => {
  if (metricsToken === undefined) return appEnv !== 'production';
  return authorization !== undefined && timingSafeEqual(digest(authorization), digest(`Bearer ${metricsToken}`));
};
