export * from './cells-of-unit';
export * from './register-unit-areas';
export * from './unit-areas';
export * from './unit-containing';
export * from './unit-location';
export * from './unit-mean';
export * from './unit-outline';
