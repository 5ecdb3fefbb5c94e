import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The faults below the application (SPEC §10, docs/reliability.md), run by `scripts/cropcover test-faults`
// inside a network namespace made for the run. No global setup: the suite makes its own PostgreSQL
// clusters and needs neither the machine's server nor a Kafka broker. One file at a time: each strikes
// clusters and processes that load both cores.
export default defineConfig({
  root: fileURLToPath(new URL('..', import.meta.url)),
  test: {
    name: 'faults',
    include: ['test/src/**/*.fault.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 180_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
