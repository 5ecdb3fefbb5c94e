export * from './cadence';
export * from './cells-read-by';
export * from './index-source';
export * from './reading-bounds';
export * from './register-index-source';
export * from './sampling';
export * from './source-access';
export * from './source-location';
