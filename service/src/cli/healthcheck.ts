import { loadConfig } from '@cropcover/runtime/config';

// The production image's HEALTHCHECK: exit 0 when the process of this container answers `/healthz` on
// its port (every process serves it), 1 when it does not answer within 2 s. The port comes from the same
// environment through the same loader as the process's own; only the loader is imported, as this runs
// every few seconds beside the process.
const { port } = loadConfig();
const healthy = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }).then(
  (response) => response.ok,
  () => false,
);
process.exit(healthy ? 0 : 1);
