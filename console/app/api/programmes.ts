import type {
  PortfolioBacktestJob,
  Programme,
  ProgrammeExposure,
  ProgrammeList,
  ProgrammeResults,
  TreatyList,
} from '@cropcover/contracts';
import { apiGet, apiPost } from './client';

// The programme endpoints the console reads (SPEC §7 "Programmes, capacity, portfolio and reinsurance"),
// typed by the API's own contracts.

export const listProgrammes = (page: number, signal: AbortSignal): Promise<ProgrammeList> =>
  apiGet<ProgrammeList>('/insurance/programmes', { page, page_size: 50 }, signal);

const programmePath = (programmeId: string): string => `/insurance/programmes/${encodeURIComponent(programmeId)}`;

export const getProgramme = (programmeId: string, signal: AbortSignal): Promise<Programme> =>
  apiGet<Programme>(programmePath(programmeId), {}, signal);

/** The zones, fullest first, a page at a time. */
export const getZoneExposure = (programmeId: string, page: number, signal: AbortSignal): Promise<ProgrammeExposure> =>
  apiGet<ProgrammeExposure>(
    `${programmePath(programmeId)}/exposure`,
    { group_by: 'zone', sort: 'utilisation_desc', page, page_size: 100 },
    signal,
  );

export const listTreaties = (programmeId: string, signal: AbortSignal): Promise<TreatyList> =>
  apiGet<TreatyList>(`${programmePath(programmeId)}/treaties`, {}, signal);

/** Gross, ceded and net of the programme's current period. */
export const getResults = (programmeId: string, signal: AbortSignal): Promise<ProgrammeResults> =>
  apiGet<ProgrammeResults>(`${programmePath(programmeId)}/results`, {}, signal);

export const startBacktest = (programmeId: string, seasons: number): Promise<PortfolioBacktestJob> =>
  apiPost<PortfolioBacktestJob>(`${programmePath(programmeId)}/backtests`, { seasons });

export const getBacktest = (programmeId: string, jobId: string, signal: AbortSignal): Promise<PortfolioBacktestJob> =>
  apiGet<PortfolioBacktestJob>(`${programmePath(programmeId)}/backtests/${encodeURIComponent(jobId)}`, {}, signal);
