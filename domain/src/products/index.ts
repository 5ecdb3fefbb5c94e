export * from './payout-curve';
export * from './product';
export * from './register-product-version';
export * from './retire-product-version';
