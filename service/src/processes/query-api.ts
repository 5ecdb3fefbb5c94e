import { runProcess } from '../run';

// The query-api as a process of its own (production topology; docker-compose.yml runs it).
await runProcess('query API', ['query-api']);
