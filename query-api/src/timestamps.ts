/** timestamptz columns come back as Date; the API speaks ISO 8601 in UTC with milliseconds. */
export const isoTimestamp = (value: Date | string): string => new Date(value).toISOString();
