export * from './common';
export * from './currency';
export * from './insurance';
export * from './integration';
export * from './log-event';
export * from './openapi';
export * from './registry';
export * from './webhooks';
export { z } from './zod';
