import { callApi } from './client';

// The programme endpoints the console reads (SPEC §7 "Programmes, capacity, portfolio and reinsurance"),
// typed by the API's own contracts.

export const listProgrammes = (page: number, signal: AbortSignal) =>
  callApi('GET /insurance/programmes', { query: { page, page_size: 50 } }, signal);

export const getProgramme = (programmeId: string, signal: AbortSignal) =>
  callApi('GET /insurance/programmes/{programme_id}', { params: { programme_id: programmeId } }, signal);

/** The zones, fullest first, a page at a time. */
export const getZoneExposure = (programmeId: string, page: number, signal: AbortSignal) =>
  callApi(
    'GET /insurance/programmes/{programme_id}/exposure',
    {
      params: { programme_id: programmeId },
      query: { group_by: 'zone', sort: 'utilisation_desc', page, page_size: 100 },
    },
    signal,
  );

export const listTreaties = (programmeId: string, signal: AbortSignal) =>
  callApi('GET /insurance/programmes/{programme_id}/treaties', { params: { programme_id: programmeId } }, signal);

/** Gross, ceded and net of the programme's current period. */
export const getResults = (programmeId: string, signal: AbortSignal) =>
  callApi('GET /insurance/programmes/{programme_id}/results', { params: { programme_id: programmeId } }, signal);

export const startBacktest = (programmeId: string, seasons: number) =>
  callApi('POST /insurance/programmes/{programme_id}/backtests', {
    params: { programme_id: programmeId },
    body: { seasons },
  });

export const getBacktest = (programmeId: string, jobId: string, signal: AbortSignal) =>
  callApi(
    'GET /insurance/programmes/{programme_id}/backtests/{job_id}',
    { params: { programme_id: programmeId, job_id: jobId } },
    signal,
  );
