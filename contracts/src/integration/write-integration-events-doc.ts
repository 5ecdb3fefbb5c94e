import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderIntegrationEventsDoc } from './integration-events-doc';

// Rewrites docs/integration-events.md after a change to the integration message schemas.
const page = fileURLToPath(new URL('../../../docs/integration-events.md', import.meta.url));
writeFileSync(page, renderIntegrationEventsDoc());
console.log(`wrote ${page}`);
