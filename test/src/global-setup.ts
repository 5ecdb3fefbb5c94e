import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildServiceBundle } from './support/service-bundle';
import { repositoryRoot } from './support/service-process';
import { provideTestKafkaBroker } from './test-kafka-broker';
import { provideTestPostgres } from './test-postgres';

// Runs once per `vitest run`, before any test file: finds or starts the PostgreSQL server and the Kafka
// broker the suites need, so `npm test` works on a fresh machine with only Node, and compiles the
// service's processes once for every suite that starts one (test/src/support/service-bundle.ts), with
// the console built as `npm start` would build it. What it sets in process.env reaches every forked test
// worker; the function it returns stops what it started.
export default async function setup(): Promise<() => Promise<void>> {
  const bundle = join(repositoryRoot, '.data', 'test-service-bundle', `run-${process.pid}`);
  await Promise.all([
    promisify(execFile)('bash', [join(repositoryRoot, 'scripts/cropcover'), 'build-console'], { timeout: 600_000 }),
    buildServiceBundle(bundle),
  ]);
  process.env.TEST_SERVICE_BUNDLE = bundle;
  const postgres = await provideTestPostgres();
  process.env.TEST_DATABASE_URL = postgres.url;
  const stopBroker = await provideTestKafkaBroker();
  return async () => {
    try {
      await stopBroker();
    } finally {
      await postgres.stop();
      await rm(bundle, { recursive: true, force: true });
    }
  };
}
