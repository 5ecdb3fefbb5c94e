import { createLogger, loadConfigOrExit, stopOnSignals } from '@cropcover/runtime';
import { startAllInOne } from './all-in-one';

// `npm start`: the whole service in one process.
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'cropcover' });
const service = await startAllInOne(config, logger);
logger.info({ port: service.port, app_env: config.appEnv }, `CropCover listening on http://127.0.0.1:${service.port}`);
stopOnSignals(logger, service.stop);
