import { defineConfig } from 'vitest/config';

// One runner for the whole workspace. Unit tests are fast and pure; integration and end-to-end
// suites create their own PostgreSQL database each, so they can run in parallel files. The Kafka
// suites share one broker, and one of them stops it for 10 s: they run after the others, one file at a
// time, so no suite meets a broker another one has stopped.
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    globalSetup: ['./test/src/global-setup.ts'],
    projects: [
      {
        test: {
          ...shared,
          name: 'main',
          include: ['*/src/**/*.test.ts', 'console/app/**/*.test.ts', 'test/**/*.test.ts'],
          // The faults below the application run in a network namespace of their own, through
          // `scripts/cropcover test-faults` and test/vitest.faults.config.ts.
          exclude: ['**/node_modules/**', '**/*.kafka.test.ts', '**/*.fault.test.ts'],
        },
      },
      {
        test: {
          ...shared,
          name: 'kafka',
          include: ['*/src/**/*.kafka.test.ts'],
          exclude: ['**/node_modules/**'],
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
