import { afterAll, beforeAll, describe } from 'vitest';
import type { EventStore } from '../port';
import { describeAppends } from './appends';
import { describeAuditChain } from './audit-chain';
import type { ContractBackend, ContractSubject } from './contract-subject';
import { describeReads } from './reads';
import { describeSubscriptions } from './subscriptions';
import { describeUpcasting } from './upcasting';

/** The event store contract both adapters pass, one file per concern: appends, the audit chain, reads
 *  of $all, subscriptions and upcasting, all against one store opened on `setup`'s log. */
export const describeEventStoreContract = (name: string, setup: () => Promise<ContractBackend>): void => {
  describe(`event store contract: ${name}`, () => {
    let backend: ContractBackend;
    let store: EventStore;
    const subject: ContractSubject = { backend: () => backend, store: () => store };

    beforeAll(async () => {
      backend = await setup();
      store = await backend.openStore();
    });

    afterAll(async () => {
      await store?.close();
      await backend?.dispose();
    });

    describeAppends(subject);
    describeAuditChain(subject);
    describeReads(subject);
    describeSubscriptions(subject);
    describeUpcasting(subject);
  });
};
