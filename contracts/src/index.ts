export * from './common';
export * from './currency';
export * from './openapi';
export * from './registry';
export { z } from './zod';
