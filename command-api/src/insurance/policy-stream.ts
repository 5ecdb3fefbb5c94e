import type { PolicyEvent } from '@cropcover/contracts';
import { evolvePolicy, initialPolicy, type Policy } from '@cropcover/domain';
import type { Aggregate } from '../handle-command';

export const policyStream = (policyId: string): string => `policy-${policyId}`;

export const policyAggregate: Aggregate<Policy, PolicyEvent> = { initial: initialPolicy, evolve: evolvePolicy };
