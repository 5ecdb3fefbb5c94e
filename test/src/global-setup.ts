import { provideTestPostgres } from './test-postgres';

// Runs once per `vitest run`, before any test file: finds or starts the PostgreSQL server the suites
// need, so `npm test` works on a fresh machine with only Node. What it sets in process.env reaches
// every forked test worker; the function it returns stops what it started.
export default async function setup(): Promise<() => Promise<void>> {
  const postgres = await provideTestPostgres();
  process.env.TEST_DATABASE_URL = postgres.url;
  return () => postgres.stop();
}
