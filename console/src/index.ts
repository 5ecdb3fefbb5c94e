import { fileURLToPath } from 'node:url';

/** Where `vite build` puts the console (scripts/cropcover builds it on start and test when its sources
 *  changed): the query API serves this folder at /console. */
export const consoleBuildDirectory = fileURLToPath(new URL('../dist/', import.meta.url));
