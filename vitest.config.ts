import { defineConfig } from 'vitest/config';

// One runner for the whole workspace. Unit tests are fast and pure; integration and end-to-end
// suites create their own PostgreSQL database each, so they can run in parallel files.
export default defineConfig({
  test: {
    include: ['*/src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: ['**/node_modules/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    globalSetup: ['./test/src/global-setup.ts'],
    pool: 'forks',
  },
});
