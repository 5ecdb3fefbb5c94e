export * from './deactivate-farm';
export * from './farm';
export * from './farm-access';
export * from './link-farm-to-organization';
export * from './register-farm';
export * from './register-field';
export * from './update-farm';
