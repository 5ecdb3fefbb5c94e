export { buildAsyncApiDocument } from './asyncapi';
export * from './integration-events-doc';
export * from './messages';
export * from './topics';
