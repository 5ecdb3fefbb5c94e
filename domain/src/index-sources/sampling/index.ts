export * from './bilinear-neighbours';
export * from './sampled-cells';
export * from './sampled-series';
