import { provideTestKafkaBroker } from './test-kafka-broker';
import { provideTestPostgres } from './test-postgres';

// Runs once per `vitest run`, before any test file: finds or starts the PostgreSQL server and the Kafka
// broker the suites need, so `npm test` works on a fresh machine with only Node. What it sets in
// process.env reaches every forked test worker; the function it returns stops what it started.
export default async function setup(): Promise<() => Promise<void>> {
  const postgres = await provideTestPostgres();
  process.env.TEST_DATABASE_URL = postgres.url;
  const stopBroker = await provideTestKafkaBroker();
  return async () => {
    try {
      await stopBroker();
    } finally {
      await postgres.stop();
    }
  };
}
