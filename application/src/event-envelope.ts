import { POLICY_ISSUED_SCHEMA_VERSION } from '@cropcover/contracts';
import { PLATFORM_VERSION } from '@cropcover/domain';
import type { NewEvent } from '@cropcover/eventstore';
import { v7 as uuidv7 } from 'uuid';
import type { CommandContext } from './command-context';

/** Every event shape starts at schema version 1; a new shape bumps it, and what reads an older one
 *  upcasts it (`PolicyIssued` before products: the policy's evolve reads its triggers as a sheet). */
const SCHEMA_VERSIONS: Readonly<Record<string, number>> = { PolicyIssued: POLICY_ISSUED_SCHEMA_VERSION };
const schemaVersionOf = (type: string): number => SCHEMA_VERSIONS[type] ?? 1;

export interface DomainEvent {
  readonly type: string;
  readonly data: unknown;
}

/** Wraps a decided event with the metadata SPEC §2 requires of every event in the log. */
export const toNewEvent = (event: DomainEvent, context: CommandContext): NewEvent => ({
  type: event.type,
  data: event.data,
  metadata: {
    event_id: uuidv7(),
    occurred_at: context.now.toISOString(),
    actor: context.principal.sub,
    organization_id: context.principal.organizationId,
    correlation_id: context.correlationId,
    causation_id: context.requestId,
    schema_version: schemaVersionOf(event.type),
    platform_version: PLATFORM_VERSION,
  },
});
