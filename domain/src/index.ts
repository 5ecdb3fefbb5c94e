export type { Actor } from './actor';
export { DomainError, type RefusalReason } from './domain-error';
export { laterTimestamp } from './later-timestamp';
export * from './registry';
export { newShareableId, normalizeShareableId, type ShareableIdPrefix } from './shareable-id';
