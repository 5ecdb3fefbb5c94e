import { execFile } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describeNeeding } from './describe-needing';

// Kafka suites run against a real broker: KAFKA_BROKERS, else the local one `scripts/kafka-broker start`
// runs at 127.0.0.1:9092. Without one they cannot prove anything, so in CI they fail; on a developer's
// machine they are skipped, loudly, with the command that fixes it.

const DEFAULT_BROKERS = ['127.0.0.1:9092'];
const PROBE_TIMEOUT_MS = 2_000;
const brokerScript = fileURLToPath(new URL('../../../scripts/kafka-broker', import.meta.url));

export const testBrokers: readonly string[] =
  process.env.KAFKA_BROKERS?.split(',').map((broker) => broker.trim()) ?? DEFAULT_BROKERS;

const accepts = (broker: string): Promise<boolean> =>
  new Promise((resolve) => {
    const [host = '', port = ''] = broker.split(':');
    const socket = connect({ host, port: Number(port), timeout: PROBE_TIMEOUT_MS });
    const settle = (reachable: boolean) => {
      socket.destroy();
      resolve(reachable);
    };
    socket.once('connect', () => settle(true));
    socket.once('timeout', () => settle(false));
    socket.once('error', () => settle(false));
  });

const brokerReachable = (await Promise.all(testBrokers.map(accepts))).every(Boolean);

/** A describe block that needs the broker: runs, fails (CI) or is skipped with a warning (elsewhere). */
export const describeWithKafka = (name: string, body: () => void): void =>
  describeNeeding(
    name,
    brokerReachable
      ? undefined
      : `no Kafka broker at ${testBrokers.join(',')}: run \`scripts/kafka-broker start\` or set KAFKA_BROKERS`,
    body,
  );

/** Runs `scripts/kafka-broker <command>` (start waits until the broker accepts connections again). */
export const kafkaBrokerScript = async (command: 'start' | 'stop' | 'status'): Promise<void> => {
  await promisify(execFile)('bash', [brokerScript, command], { timeout: 90_000 });
};
