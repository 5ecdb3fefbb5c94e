import { runProcess } from '../run';

// The projector as a process of its own (production topology; docker-compose.yml runs it).
await runProcess('projector', ['projector']);
