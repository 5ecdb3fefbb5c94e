import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { repositoryRoot } from './support/service-process';

// The broker the Kafka suites (describeWithKafka) use: KAFKA_BROKERS when set, else one already at
// 127.0.0.1:9092, else the project's own (scripts/kafka-broker) started for this run when Java and Maven
// are there to run it. Without any the suites are skipped — failed in CI — and this says why up front.

const LOCAL_BROKER = '127.0.0.1:9092';
const PROBE_TIMEOUT_MS = 2_000;
const brokerScript = join(repositoryRoot, 'scripts', 'kafka-broker');

const announce = (message: string): void => console.warn(`\n=== npm test: Kafka: ${message}\n`);

const localBrokerListens = (): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port: 9092, timeout: PROBE_TIMEOUT_MS });
    const settle = (listens: boolean) => {
      socket.destroy();
      resolve(listens);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });

const onPath = (command: string): boolean =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });

/** `scripts/kafka-broker <command>` with its output on the console: the first start downloads the jars. */
const runBrokerScript = (command: 'start' | 'stop'): Promise<void> =>
  new Promise((resolve, reject) => {
    const child = spawn('bash', [brokerScript, command], { stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`scripts/kafka-broker ${command} exited with ${code}`)),
    );
  });

/** Makes a broker available if it can; returns what stops the one it started (nothing otherwise). */
export const provideTestKafkaBroker = async (): Promise<() => Promise<void>> => {
  const nothingToStop = async () => undefined;
  if (process.env.KAFKA_BROKERS) {
    announce(`KAFKA_BROKERS ${process.env.KAFKA_BROKERS}`);
    return nothingToStop;
  }
  if (await localBrokerListens()) {
    announce(`the broker already running at ${LOCAL_BROKER}`);
    return nothingToStop;
  }
  const missing = ['java', 'mvn'].filter((command) => !onPath(command));
  if (missing.length > 0) {
    announce(
      `!!! no broker at ${LOCAL_BROKER} and no ${missing.join(' or ')} on PATH to run scripts/kafka-broker: ` +
        'THE KAFKA SUITES WILL BE SKIPPED (and fail in CI). Install Java 17 and Maven, or set KAFKA_BROKERS.',
    );
    return nothingToStop;
  }
  announce(`no broker at ${LOCAL_BROKER}; starting the project's own for this run (scripts/kafka-broker start)`);
  try {
    await runBrokerScript('start');
  } catch (error) {
    announce(`!!! ${(error as Error).message}: THE KAFKA SUITES WILL BE SKIPPED (and fail in CI)`);
    return nothingToStop;
  }
  process.env.KAFKA_BROKERS = LOCAL_BROKER;
  announce(`started the project's broker at ${LOCAL_BROKER}; it stops when the run ends`);
  return () => runBrokerScript('stop');
};
