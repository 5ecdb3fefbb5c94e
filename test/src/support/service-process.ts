import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { UNDECLARED_PROBLEM } from '@cropcover/runtime';
import { startPrismProxy } from './prism-proxy';
import { bundledEntry } from './service-bundle';

// Starts the project's processes on free ports against a given database, the way the README starts
// them, so tests talk to them over HTTP only.

export const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));
export const TEST_JWT_SECRET = 'end-to-end-test-secret-of-at-least-32-characters';
/** A key-encryption key of personal data for services started with APP_ENV=production (it has no default there). */
export const TEST_PERSONAL_DATA_KEYS = `test1:${Buffer.alloc(32, 7).toString('base64')}`;

export interface RunningService {
  readonly baseUrl: string;
  readonly output: () => string;
  /** SIGTERM to the whole process group, then wait for it to exit. */
  stop(): Promise<void>;
  /** SIGKILL to the whole process group: a crash, with no chance to finish anything. */
  kill(): Promise<void>;
}

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });

const exited = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });

/** `npm start` exits before the service it started has finished stopping: waits for its whole process
 *  group, so a stopped service no longer touches the database or the broker. */
const groupExited = async (child: ChildProcess): Promise<void> => {
  await exited(child);
  for (;;) {
    try {
      process.kill(-child.pid!, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** The all-in-one service of this checkout, from the bundle the global setup built (what `npm start`
 *  runs, compiled once per run: test/src/support/service-bundle.ts), or `npm start` of another checkout
 *  (`cwd`: a benchmark runs an older one beside it) or when there is no bundle. With E2E_PRISM_PROXY=true, behind a Prism
 *  proxy (README, "Checking the API contract"): a response the OpenAPI document does not allow fails the
 *  suite when it stops the service. */
export const startService = async (
  env: Record<string, string>,
  cwd: string = repositoryRoot,
): Promise<RunningService> => {
  const bundled = cwd === repositoryRoot ? bundledEntry('service/src/main.ts') : undefined;
  const command = bundled ? [process.execPath, bundled] : ['npm', 'start', '--silent'];
  const service = await startProcess(command, env, '/readyz', cwd);
  return process.env.E2E_PRISM_PROXY === 'true' ? behindPrism(service) : service;
};

const behindPrism = async (service: RunningService): Promise<RunningService> => {
  const prism = await startPrismProxy(service.baseUrl);
  const report = (): void => {
    const violations = prism.responseViolations();
    console.info(`prism: ${prism.forwarded()} requests forwarded, ${violations.length} response violations`);
    if (violations.length > 0)
      throw new Error(`Prism found responses the OpenAPI document does not allow:\n${violations.join('\n')}`);
  };
  return {
    ...service,
    baseUrl: prism.baseUrl,
    stop: async () => {
      await prism.stop();
      await service.stop();
      report();
    },
    kill: async () => {
      await prism.stop();
      await service.kill();
      report();
    },
  };
};

/** The service logs every problem answer a route's declaration does not list (issue 23): the test that
 *  provoked one fails when it stops the service, naming the route and the code to declare. */
const refuseUndeclaredProblems = (output: string): void => {
  const undeclared = output.split('\n').filter((line) => line.includes(UNDECLARED_PROBLEM));
  if (undeclared.length > 0)
    throw new Error(`the service answered problems its route declarations do not list:\n${undeclared.join('\n')}`);
};

/** `tsx service/src/<entry>.ts` of this checkout runs that entry's bundle when the global setup built one. */
const compiledOnce = (commandLine: readonly string[], cwd: string): readonly string[] => {
  const [command, source, ...rest] = commandLine;
  const bundled = command === 'node_modules/.bin/tsx' && cwd === repositoryRoot && source && bundledEntry(source);
  return bundled ? [process.execPath, bundled, ...rest] : commandLine;
};

/** Any of the project's processes (`[command, ...args]`), ready once `readyPath` answers 2xx. */
export const startProcess = async (
  commandLine: readonly string[],
  env: Record<string, string>,
  readyPath: string,
  cwd: string = repositoryRoot,
): Promise<RunningService> => {
  const [command, ...args] = compiledOnce(commandLine, cwd);
  const port = await freePort();
  let output = '';
  const child = spawn(command!, args, {
    cwd,
    env: {
      ...process.env,
      PORT: String(port),
      AUTH_JWT_SECRET: TEST_JWT_SECRET,
      LOG_LEVEL: 'warn',
      // Services of different test files share one broker but not one database: through shared topics
      // and consumer groups one service would pick up another's breaches. Kafka is opt-in per test.
      KAFKA_BROKERS: '',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const service: RunningService = {
    baseUrl,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGTERM');
      await groupExited(child);
      refuseUndeclaredProblems(output);
    },
    kill: async () => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await groupExited(child);
      refuseUndeclaredProblems(output);
    },
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`the service exited with ${child.exitCode} before it was ready:\n${output}`);
    try {
      if ((await fetch(`${baseUrl}${readyPath}`)).ok) return service;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await service.stop();
  throw new Error(`the service did not become ready within 90 s:\n${output}`);
};
