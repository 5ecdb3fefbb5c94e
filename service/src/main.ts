import type { AddressInfo } from 'node:net';
import { createLogger, loadConfigOrExit, stopOnSignals } from '@cropcover/runtime';
import { startAllInOne } from './all-in-one';

// `npm start`: the whole service in one process.
const config = loadConfigOrExit();
const logger = createLogger({ level: config.logLevel, name: 'cropcover' });
const service = await startAllInOne(config, logger);
const { port } = service.server.address() as AddressInfo;
logger.info({ port, app_env: config.appEnv }, `CropCover listening on http://127.0.0.1:${port}`);
stopOnSignals(logger, service.stop);
