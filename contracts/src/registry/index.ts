export * from './events';
export * from './farm';
export * from './farm-access';
export * from './farm-attributes';
export * from './farm-etag';
export * from './farmer';
export * from './field';
export * from './registration';
