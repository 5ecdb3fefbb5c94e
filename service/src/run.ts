import { ConfigError, createLogger, loadConfigOrExit, stopOnSignals } from '@cropcover/runtime';
import type { Role } from './roles';
import { startService } from './start';

/** A process's whole main: load the configuration, start its roles, stop cleanly on SIGTERM/SIGINT.
 *  A bad environment exits 1 naming the variable, whichever process it is. */
export const runProcess = async (title: string, roles: readonly Role[]): Promise<void> => {
  const config = loadConfigOrExit();
  const logger = createLogger({ level: config.logLevel, name: title.toLowerCase().replaceAll(' ', '-') });
  try {
    const service = await startService(roles, config, logger);
    const servesApi = roles.includes('command-api') || roles.includes('query-api');
    logger.info(
      { port: service.port, roles, app_env: config.appEnv },
      servesApi
        ? `${title} listening on http://127.0.0.1:${service.port}`
        : `${title} serving /healthz and /metrics (and /readyz) on port ${service.port}`,
    );
    stopOnSignals(logger, service.stop);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
};
