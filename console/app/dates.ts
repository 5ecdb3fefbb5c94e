// UTC calendar dates (`YYYY-MM-DD`), as every date of the API is: they compare as text.

const MS_PER_DAY = 86_400_000;

export const dayOf = (date: string): number => Date.parse(`${date}T00:00:00Z`) / MS_PER_DAY;
export const dateOf = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

/** Each date of [from, to], both included. */
export const datesOf = (from: string, to: string): string[] => {
  const dates: string[] = [];
  for (let day = dayOf(from); day <= dayOf(to); day += 1) dates.push(dateOf(day));
  return dates;
};

export const earlierDate = (a: string, b: string): string => (a <= b ? a : b);
export const laterDate = (a: string, b: string): string => (a >= b ? a : b);
