import type { EventStore } from '@cropcover/eventstore';
import type { Clock } from '@cropcover/runtime';
import type { ReadYourWrites } from './read-your-writes';

export interface CommandApiDeps {
  readonly eventStore: EventStore;
  readonly clock: Clock;
  readonly readYourWrites: ReadYourWrites;
}
