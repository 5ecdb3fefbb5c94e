import { runProcess } from '../run';

// The command-api as a process of its own (production topology; docker-compose.yml runs it).
await runProcess('command API', ['command-api']);
