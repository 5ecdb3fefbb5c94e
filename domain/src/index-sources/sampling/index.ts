export * from './bilinear-neighbours';
export * from './location-sampling';
export * from './sampled-cells';
export * from './sampled-series';
