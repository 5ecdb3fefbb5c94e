export * from './delivery';
export * from './events';
export * from './subscription';
export * from './webhook-address';
