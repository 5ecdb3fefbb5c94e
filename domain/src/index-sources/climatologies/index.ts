export * from './climatology-digest';
export * from './climatology-normals';
export * from './climatology-periods';
export * from './compute-climatology';
export * from './exact-statistics';
