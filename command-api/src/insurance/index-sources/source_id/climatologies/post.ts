import { climatologyDates, loadAggregate } from '@cropcover/application';
import { ClimatologyJob, ClimatologyRequest, IndexSourcePathParams } from '@cropcover/contracts';
import {
  canWriteReadings,
  DomainError,
  defaultMinYears,
  holdsRole,
  indexSourceAggregate,
  indexSourceStream,
} from '@cropcover/domain';
import { climatologyOwner, recordClimatologyRequest, sourceHasReadingsIn } from '@cropcover/read-store';
import { commandContextOf } from '../../../../command-context';
import { commandRoute } from '../../../../command-route';
import { newResourceId } from '../../../../idempotency/resource-id';

/** INDEX-DATA §3: normals of a source computed from its own stored history, as a job a monitor runs (it
 *  reads every location's years of readings); the answer says where to follow it. A name belongs to the
 *  organization that first asked for it on the source; each job makes its next version. */
export const requestClimatologyRoute = commandRoute('POST /insurance/index-sources/{source_id}/climatologies', {
  summary: 'Ask for a new version of a climatology of the source (a job)',
  description:
    'The source’s data providers, or an insurer for its own use. Periods: dekad, month, 8_day, 16_day, ' +
    '{days: n} or {window: {from, to}}; stat sum or mean over each complete period (every day read); a ' +
    'location needs min_years complete periods (default 80 % of the span) for a normal. Exact arithmetic, ' +
    'each figure rounded once to 6 decimals half up; sd is the sample standard deviation; percentiles by ' +
    'nearest rank.',
  roles: ['data_provider', 'insurer'],
  request: { params: IndexSourcePathParams, body: ClimatologyRequest },
  success: { status: 202, schema: ClimatologyJob, description: 'Queued; follow it at Location' },
  problems: {
    403: { description: 'A data provider of another organization than the source’s', codes: ['not_source_owner'] },
    404: { description: 'No such index source', codes: ['source_not_found'] },
    409: { description: 'The name belongs to another organization on this source', codes: ['climatology_name_taken'] },
    422: {
      description: 'years_not_past: the last year is not over; no_readings_in_years: the source holds none then',
      codes: ['years_not_past', 'no_readings_in_years'],
    },
  },
}).handle(async ({ deps, params: { source_id }, body, req, res, refuse, organizationId }) => {
  const context = commandContextOf(req, deps.clock.now());
  const state = await loadAggregate(deps.eventStore, indexSourceStream(source_id), indexSourceAggregate);
  if (state.status !== 'registered') throw refuse('source_not_found', `No index source ${source_id}.`);
  if (!holdsRole(context.actor, 'insurer') && !canWriteReadings(context.actor, state.source))
    throw new DomainError('forbidden', 'not_source_owner', `source ${source_id} belongs to another organization`);
  const owner = await climatologyOwner(deps.db, source_id, body.name);
  if (owner !== undefined && owner !== organizationId)
    throw refuse('climatology_name_taken', `climatology ${body.name} of source ${source_id} is another organization's`);
  const thisYear = context.now.getUTCFullYear();
  if (body.years.to >= thisYear)
    throw refuse('years_not_past', `years must end before ${thisYear}: ${body.years.to} is not over`);
  const { from, to } = climatologyDates(body.period, body.years);
  if (!(await sourceHasReadingsIn(deps.db, source_id, from, to)))
    throw refuse('no_readings_in_years', `source ${source_id} holds no reading from ${from} to ${to}`);
  const request = {
    job_id: newResourceId(res),
    source_id,
    name: body.name,
    organization_id: organizationId,
    year_from: body.years.from,
    year_to: body.years.to,
    period: body.period,
    stat: body.stat,
    min_years: body.min_years ?? defaultMinYears(body.years),
    requested_by: context.actor.subject,
    requested_at: context.now,
  };
  // A keyed retry finds its first run's request already there.
  await recordClimatologyRequest(deps.db, request);
  res.location(`/insurance/index-sources/${source_id}/climatologies/${body.name}/jobs/${request.job_id}`);
  return {
    job_id: request.job_id,
    source_id,
    name: body.name,
    status: 'queued' as const,
    requested_at: context.now.toISOString(),
    completed_at: null,
    version: null,
    error: null,
  };
});
