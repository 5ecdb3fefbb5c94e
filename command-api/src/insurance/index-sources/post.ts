import { handleCommand } from '@cropcover/application';
import { type IndexSource, IndexSourceRegisterRequest } from '@cropcover/contracts';
import {
  indexSourceAggregate,
  indexSourceStream,
  type RegisteredIndexSource,
  registerIndexSource,
  sourceOwnerFor,
} from '@cropcover/domain';
import { parseBody } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import { v7 as uuidv7 } from 'uuid';
import type { CommandApiDeps } from '../../command-api-deps';
import { commandContextOf } from '../../command-context';
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
  registered_at: source.registeredAt,
});

/** POST /insurance/index-sources — a data provider (or an admin) registers a source of index data for its
 *  organization (SPEC §7); policies then name it, and only its owner writes its readings. */
export const registerIndexSourceRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const context = commandContextOf(req, deps.clock.now());
    sourceOwnerFor(context.actor);
    const request = parseBody(IndexSourceRegisterRequest, req);
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
    res.status(201).location(`/insurance/index-sources/${sourceId}`).json(indexSourceResponse(outcome.state.source));
  };
