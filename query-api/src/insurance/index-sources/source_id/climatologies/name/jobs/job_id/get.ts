import { ClimatologyJob, ClimatologyJobPathParams } from '@cropcover/contracts';
import { loadClimatologyJob } from '@cropcover/read-store';
import { queryRoute } from '../../../../../../../query-route';
import { SOURCE_READERS } from '../../../../../index-source-view';

/** INDEX-DATA §3: a climatology job: queued, running, then the version it made or why it failed. */
export const getClimatologyJob = queryRoute(
  'GET /insurance/index-sources/{source_id}/climatologies/{name}/jobs/{job_id}',
  {
    summary: 'Follow a climatology job',
    roles: SOURCE_READERS,
    request: { params: ClimatologyJobPathParams },
    success: { status: 200, schema: ClimatologyJob, description: 'The job' },
    problems: { 404: { description: 'No such job', codes: ['climatology_not_found'] } },
  },
).handle(async ({ deps, params: { source_id, name, job_id }, refuse }) => {
  const job = await loadClimatologyJob(deps.db, source_id, name, job_id);
  if (job === undefined) throw refuse('climatology_not_found', `No job ${job_id} of climatology ${name}.`);
  return {
    job_id: job.job_id,
    source_id: job.source_id,
    name: job.name,
    status: job.run?.status ?? 'queued',
    requested_at: job.requested_at.toISOString(),
    completed_at: job.run?.completed_at?.toISOString() ?? null,
    version: job.run?.version ?? null,
    error: (job.run?.error as { code: string; detail: string } | null | undefined) ?? null,
  };
});
