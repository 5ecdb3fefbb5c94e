import type { ProgrammeExposure } from '@cropcover/contracts';

// How full a zone is, in words and in colour: the exposure grid colours each zone by the band its
// utilisation (sum insured ÷ capacity) falls in, and says the band in text so colour is never the only
// cue.

export type ExposureZone = ProgrammeExposure['items'][number];

export type UtilisationBand = 'unlimited' | 'low' | 'medium' | 'high' | 'full';

/** The bands, emptiest first, each up to (not including) its `below`; `full` is 95 % and over. */
export const UTILISATION_BANDS: readonly { readonly band: UtilisationBand; readonly label: string }[] = [
  { band: 'unlimited', label: 'no capacity set' },
  { band: 'low', label: 'under 50 %' },
  { band: 'medium', label: '50 % to 80 %' },
  { band: 'high', label: '80 % to 95 %' },
  { band: 'full', label: '95 % and over' },
];

export const utilisationBand = (utilisation: number | null): UtilisationBand => {
  if (utilisation === null) return 'unlimited';
  if (utilisation < 0.5) return 'low';
  if (utilisation < 0.8) return 'medium';
  if (utilisation < 0.95) return 'high';
  return 'full';
};

/** 0.8125 → `81.3 %`; null → `no capacity`. */
export const percent = (utilisation: number | null): string =>
  utilisation === null ? 'no capacity' : `${(utilisation * 100).toFixed(1)} %`;

/** A zone's name as the API keys it: its source and location. */
export const zoneName = (zone: ExposureZone): string => `${zone.source_id ?? '?'} · ${zone.location ?? '?'}`;
