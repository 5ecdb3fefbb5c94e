import { extendZodWithOpenApi } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

// Every contract module imports zod from here so `.openapi()` metadata is available on all schemas.
extendZodWithOpenApi(z);

export { z };
