export * from './deactivate-farm';
export * from './farm';
export * from './farm-access';
export * from './grant-farm-access';
export * from './register-farm';
export * from './register-field';
export * from './update-farm';
