export * from './as-if-book';
export * from './backtest-job-view';
export * from './default-product-covers';
export * from './loss-statistics';
export * from './portfolio-backtest';
