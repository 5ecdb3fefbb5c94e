import type { ReadModels } from '@cropcover/projector';
import type { Kysely } from 'kysely';
import type { ReadModelConsistency } from './consistency-token';

export interface QueryApiDeps {
  readonly db: Kysely<ReadModels>;
  readonly consistency: ReadModelConsistency;
  readonly readYourWritesTimeoutMs: number;
}
