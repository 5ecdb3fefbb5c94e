import { runProcess } from '../run';

// The monitor as a process of its own (production topology; docker-compose.yml runs it).
await runProcess('policy monitor', ['monitor']);
