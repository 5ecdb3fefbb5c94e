import { createLogger } from '../logger';
import { loadConfigOrExit, stopOnSignals } from '../process-lifecycle';

// A real process for process-lifecycle.test.ts: loads its config, waits for a signal, and takes
// STOP_MS to stop (or fails to, when STOP_FAILS is set).
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel });
const keepAlive = setInterval(() => undefined, 1_000);
stopOnSignals(
  logger,
  async () => {
    await new Promise((resolve) => setTimeout(resolve, Number(process.env.STOP_MS ?? 0)));
    clearInterval(keepAlive);
    if (process.env.STOP_FAILS) throw new Error('could not save checkpoint');
  },
  { timeoutMs: Number(process.env.STOP_TIMEOUT_MS ?? 5_000) },
);
logger.info('ready');
