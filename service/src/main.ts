import { ROLES } from './roles';
import { runProcess } from './run';

// `npm start`: every role in one process, on an embedded PostgreSQL unless DATABASE_URL is set.
await runProcess('CropCover', ROLES);
