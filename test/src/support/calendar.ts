// The service runs on the real clock in end-to-end tests, so dates are relative to today (UTC).

export const today = (): string => new Date().toISOString().slice(0, 10);

export const addDays = (date: string, days: number): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
