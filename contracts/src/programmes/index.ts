export * from './capacity-refusals';
export * from './events';
export * from './exposure';
export * from './limit-amount';
export * from './portfolio-backtest';
export * from './programme';
