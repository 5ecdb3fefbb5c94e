import { runAllInOne } from './all-in-one';

// `npm start`: every role, on an embedded PostgreSQL unless DATABASE_URL is set; the HTTP APIs in
// HTTP_WORKERS processes beside the one that runs the projector and the workers.
await runAllInOne();
