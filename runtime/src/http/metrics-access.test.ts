import { describe, expect, it } from 'vitest';
import { mayReadMetrics } from './metrics-access';

describe('mayReadMetrics', () => {
  it('keeps production metrics closed without a token, and the sandbox open', () => {
    expect(mayReadMetrics(undefined, { appEnv: 'production', metricsToken: undefined })).toBe(false);
    expect(mayReadMetrics('Bearer anything', { appEnv: 'production', metricsToken: undefined })).toBe(false);
    expect(mayReadMetrics(undefined, { appEnv: 'sandbox', metricsToken: undefined })).toBe(true);
  });

  it('asks for exactly Bearer <METRICS_TOKEN> once one is set, in any environment', () => {
    for (const appEnv of ['production', 'sandbox'] as const) {
      const access = { appEnv, metricsToken: 'scrape-me' };
      expect(mayReadMetrics('Bearer scrape-me', access)).toBe(true);
      expect(mayReadMetrics(undefined, access)).toBe(false);
      expect(mayReadMetrics('Bearer scrape-m', access)).toBe(false);
      expect(mayReadMetrics('scrape-me', access)).toBe(false);
    }
  });
});
