import type { IndexReading } from '@cropcover/contracts';
import { ProblemError } from '@cropcover/runtime';

// Readings are observations. One dated after today (UTC) is a forecast or a wrong date, and recording it
// would let a trigger breach on a day that has not happened.

export const FUTURE_DATE_MESSAGE = 'must not be after today (UTC)';

export const isDatedAfter = (reading: Pick<IndexReading, 'date'>, today: string): boolean => reading.date > today;

/** 422 `reading_in_future` naming every reading dated after today, so the sender fixes them in one go. */
export const refuseFutureReadings = (readings: readonly IndexReading[], today: string): void => {
  const errors = readings.flatMap((reading, at) =>
    isDatedAfter(reading, today) ? [{ path: `readings.${at}.date`, message: FUTURE_DATE_MESSAGE }] : [],
  );
  if (errors.length === 0) return;
  throw new ProblemError({
    status: 422,
    code: 'reading_in_future',
    title: 'Unprocessable content',
    detail: `${errors.length} reading${errors.length === 1 ? ' is' : 's are'} dated after today (${today}, UTC); nothing was recorded.`,
    errors,
  });
};
