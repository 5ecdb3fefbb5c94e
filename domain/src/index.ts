export type { Actor } from './actor';
export { DomainError, type RefusalReason } from './domain-error';
export * from './insurance';
export { laterTimestamp } from './later-timestamp';
export { PLATFORM_VERSION } from './platform-version';
export * from './registry';
export { newShareableId, normalizeShareableId, type ShareableIdPrefix } from './shareable-id';
export * from './webhooks';
