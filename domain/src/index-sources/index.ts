export * from './index-source';
export * from './register-index-source';
export * from './source-access';
export * from './source-location';
