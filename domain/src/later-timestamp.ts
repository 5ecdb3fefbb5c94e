/** `now` as an ISO timestamp, pushed 1 ms past `previous` when the clock has not moved on: `updated_at`
 *  doubles as a version for lost-update protection, so it must change with every change. */
export const laterTimestamp = (now: Date, previous: string): string => {
  const previousMs = Date.parse(previous);
  return new Date(Math.max(now.getTime(), previousMs + 1)).toISOString();
};
