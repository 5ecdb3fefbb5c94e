// How the console writes figures: the browser's locale, amounts in their currency, dates as UTC dates
// (every date of the API is a UTC calendar date).

export const money = (amount: number, currency: string): string => {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
};

export const timestamp = (iso: string): string =>
  `${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' })} UTC`;

export const figure = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : value.toLocaleString(undefined, { maximumFractionDigits: 6 });

/** `vegetation_stress` → `Vegetation stress`. */
export const words = (code: string): string => {
  const text = code.replaceAll('_', ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
