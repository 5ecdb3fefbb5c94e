import { randomUUID } from 'node:crypto';
import type { NewEvent } from '../port';

/** A new event with complete metadata, as the command side would append it. */
export const testEvent = (type: string, data: unknown, schemaVersion = 1): NewEvent => ({
  type,
  data,
  metadata: {
    event_id: randomUUID(),
    occurred_at: new Date().toISOString(),
    actor: 'contract-test',
    organization_id: 'org-contract',
    correlation_id: randomUUID(),
    causation_id: null,
    schema_version: schemaVersion,
    platform_version: '0.0.0-test',
  },
});
