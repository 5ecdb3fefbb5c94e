export * from './events';
export * from './results';
export * from './treaty';
