export * from './common';
export * from './currency';
export * from './insurance';
export * from './openapi';
export * from './registry';
export { z } from './zod';
