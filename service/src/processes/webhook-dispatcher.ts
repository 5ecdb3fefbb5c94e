import { runProcess } from '../run';

// The webhook-dispatcher as a process of its own (production topology; docker-compose.yml runs it).
await runProcess('webhook dispatcher', ['webhook-dispatcher']);
