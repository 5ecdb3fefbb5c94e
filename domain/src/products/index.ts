export * from './basis-risk';
export * from './payout-curve';
export * from './product';
export * from './product-backtest';
export * from './product-backtest-plan';
export * from './register-product-version';
export * from './retire-product-version';
