/** Bulk writes whose documented batch size does not fit the 1 MiB body limit: 10,000 index readings
 *  with UUID farm ids take about 2 MiB. */
export const COMMAND_BODY_LIMITS: Readonly<Record<string, number>> = { '/insurance/index-readings': 4 * 1024 * 1024 };
