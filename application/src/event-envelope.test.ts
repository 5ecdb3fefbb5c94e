import { describe, expect, it } from 'vitest';
import type { CommandContext } from './command-context';
import { toNewEvent } from './event-envelope';

const context: CommandContext = {
  principal: { sub: 'underwriter', organizationId: 'org-1', roles: ['insurer'] },
  actor: { subject: 'underwriter', organizationId: 'org-1', isAdmin: false, roles: ['insurer'] },
  requestId: 'request-1',
  correlationId: 'correlation-1',
  now: new Date('2026-05-30T08:00:00.000Z'),
};

describe('the event envelope', () => {
  it('writes PolicyIssued at schema version 2, since it carries the product and its sheet, every other event at 1', () => {
    expect(toNewEvent({ type: 'PolicyIssued', data: {} }, context).metadata.schema_version).toBe(2);
    expect(toNewEvent({ type: 'TriggerEvaluated', data: {} }, context).metadata.schema_version).toBe(1);
    expect(toNewEvent({ type: 'FarmRegistered', data: {} }, context).metadata).toMatchObject({
      schema_version: 1,
      actor: 'underwriter',
      organization_id: 'org-1',
      correlation_id: 'correlation-1',
      causation_id: 'request-1',
      occurred_at: '2026-05-30T08:00:00.000Z',
    });
  });
});
