import { handleCommand } from '@cropcover/application';
import { INDEX_SOURCE_RULES, IndexSource, IndexSourceRegisterRequest } from '@cropcover/contracts';
import {
  indexSourceAggregate,
  indexSourceStream,
  type RegisteredIndexSource,
  registerIndexSource,
} from '@cropcover/domain';
import { v7 as uuidv7 } from 'uuid';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { awaitReadModels } from '../../read-your-writes';

/** The source as GET shows it. */
const indexSourceResponse = (source: RegisteredIndexSource): IndexSource => ({
  source_id: source.sourceId,
  organization_id: source.organizationId,
  name: source.name,
  index: source.index,
  kind: source.kind,
  stations: source.kind === 'station' ? [...source.stations] : null,
  radius_km: source.radiusKm,
  resolution_deg: source.resolutionDeg,
  unit: source.unit,
  currency: source.currency,
  cadence: source.cadence,
  sampling: source.sampling,
  product: source.product,
  model: source.model,
  registered_at: source.registeredAt,
});

/** A data provider (or an admin) registers a source of index data for its organization (SPEC §7); policies
 *  then name it, and only its owner writes its readings. */
export const registerIndexSourceRoute = commandRoute('POST /insurance/index-sources', {
  summary: "Register a source of index data (station, grid or field) for the caller's organization",
  description: INDEX_SOURCE_RULES,
  roles: ['data_provider'],
  request: { body: IndexSourceRegisterRequest },
  success: { status: 201, schema: IndexSource, description: 'Registered; Location names it' },
  problems: { 409: { description: 'A new source kept colliding', codes: ['source_exists', ...KEPT_CHANGING.codes] } },
}).handle(async ({ deps, body: request, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const sourceId = uuidv7();
  const outcome = await handleCommand(
    deps.eventStore,
    indexSourceStream(sourceId),
    indexSourceAggregate,
    (state) => registerIndexSource({ actor: context.actor, sourceId, request, now: context.now }, state),
    context,
  );
  if (outcome.state.status !== 'registered') throw new Error(`index source ${sourceId} was not registered`);
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  res.location(`/insurance/index-sources/${sourceId}`);
  return indexSourceResponse(outcome.state.source);
});
