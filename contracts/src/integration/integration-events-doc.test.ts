import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderIntegrationEventsDoc } from './integration-events-doc';
import { INTEGRATION_TOPICS } from './topics';

const page = readFileSync(new URL('../../../docs/integration-events.md', import.meta.url), 'utf8');

describe('docs/integration-events.md', () => {
  it('is what the schemas render (run contracts/src/integration/write-integration-events-doc.ts after a change)', () => {
    expect(page).toBe(renderIntegrationEventsDoc());
  });

  it('names every topic and the fields a consumer keys and dedupes on', () => {
    for (const topic of Object.values(INTEGRATION_TOPICS)) expect(page).toContain(`## \`${topic}\``);
    for (const field of ['"event_id"', '"stream_revision"', '"policy_id"', '"aggregate_id"', '"ce_id"'])
      expect(page).toContain(field);
  });
});
