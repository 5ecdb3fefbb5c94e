// How the console writes figures: the browser's locale, amounts in their currency, dates as UTC dates
// (every date of the API is a UTC calendar date). Formatters are made once each: making one costs far
// more than using it, and a page writes hundreds of figures.

const moneyFormats = new Map<string, Intl.NumberFormat>();
const figureFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 });
const timestampFormat = new Intl.DateTimeFormat(undefined, {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
});
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });
const dayMonthFormat = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' });

export const money = (amount: number, currency: string): string => {
  let format = moneyFormats.get(currency);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    } catch {
      return `${figureFormat.format(amount)} ${currency}`;
    }
    moneyFormats.set(currency, format);
  }
  return format.format(amount);
};

/** Minor units of a currency (a term sheet's `minor` amounts) as money: the currency's own decimals, as the
 *  browser knows them (ISO 4217's minor unit). */
export const moneyOfMinorUnits = (minor: number, currency: string): string => {
  let decimals = 2;
  try {
    decimals =
      new Intl.NumberFormat(undefined, { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code: shown with two decimals, as `money` shows it.
  }
  return money(minor / 10 ** decimals, currency);
};

export const timestamp = (iso: string): string => `${timestampFormat.format(new Date(iso))} UTC`;

/** `2026-04-05` → `Apr 5, 2026` (in the browser's locale): the day of a timestamp, without its time. */
export const calendarDate = (date: string): string => dateFormat.format(new Date(`${date}T00:00:00Z`));

/** A period of calendar dates, both included: `Jan 1, 2026 – Dec 31, 2026`. */
export const period = (from: string, to: string): string => `${calendarDate(from)} – ${calendarDate(to)}`;

/** `2026-04-05` → `Apr 5`. */
export const dayAndMonth = (date: string): string => dayMonthFormat.format(new Date(`${date}T00:00:00Z`));

export const figure = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : figureFormat.format(value);

/** `vegetation_stress` → `Vegetation stress`. */
export const words = (code: string): string => {
  const text = code.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
