import { type Config, ConfigError, loadConfig } from './config';
import type { Logger } from './logger';

// How every CropCover process starts and stops: it refuses to start on a bad environment, naming each
// bad variable, and on SIGTERM/SIGINT it stops accepting work, finishes what is in flight and exits.

/** loadConfig, or print the ConfigError's list of bad variables and exit with status 1. */
export const loadConfigOrExit = (env: NodeJS.ProcessEnv = process.env): Config => {
  try {
    return loadConfig(env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
};

export interface StopOnSignalsOptions {
  readonly signals?: readonly NodeJS.Signals[];
  /** A stop that takes longer is abandoned and the process exits with status 1. */
  readonly timeoutMs?: number;
}

/**
 * Runs `stop` once on the first SIGTERM or SIGINT, then exits (0 when it finished, 1 when it failed or
 * timed out). A second signal while stopping exits at once, for an operator who wants out now — unless
 * it comes within a second of the first: Ctrl-C and `kill` of a process group reach a process both
 * directly and relayed by its launcher (npm, tsx), and that echo must not cut the stop short.
 */
const RELAYED_SIGNAL_WINDOW_MS = 1_000;

export const stopOnSignals = (
  logger: Logger,
  stop: () => Promise<void>,
  { signals = ['SIGTERM', 'SIGINT'], timeoutMs = 30_000 }: StopOnSignalsOptions = {},
): void => {
  let stoppingSince: number | undefined;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stoppingSince !== undefined) {
      if (Date.now() - stoppingSince < RELAYED_SIGNAL_WINDOW_MS) return;
      logger.warn({ signal }, 'second signal: exiting without finishing');
      process.exit(1);
    }
    stoppingSince = Date.now();
    logger.info({ signal }, 'stopping');
    const deadline = setTimeout(() => {
      logger.error({ timeout_ms: timeoutMs }, 'stop timed out');
      process.exit(1);
    }, timeoutMs);
    deadline.unref();
    stop().then(
      () => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'stop failed');
        logger.flush();
        process.exit(1);
      },
    );
  };
  for (const signal of signals) process.on(signal, onSignal);
};
