/** What a CropCover process can do; a process runs one or more of these. The production topology runs
 *  each on its own (and several monitors, dispatchers or API processes where load asks); `npm start` runs
 *  them all in one process. */
export const ROLES = ['command-api', 'query-api', 'projector', 'monitor', 'webhook-dispatcher'] as const;

export type Role = (typeof ROLES)[number];
