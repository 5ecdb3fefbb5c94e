import { handleCommand, loadAggregate } from '@cropcover/application';
import { IndexSourcePathParams, UnitAreasRegistration, UnitAreasRequest } from '@cropcover/contracts';
import {
  indexSourceAggregate,
  indexSourceStream,
  registerUnitAreas,
  unitAreasAggregate,
  unitAreasStream,
} from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';

/** INDEX-DATA §2.4: named areas of a source, each then a location of it — readings posted under its
 *  unit_id, and the fields inside its polygon reading it. Written by whoever writes the source's readings. */
export const registerUnitAreasRoute = commandRoute('POST /insurance/index-sources/{source_id}/units', {
  summary: 'Add unit areas (GeoJSON Polygon or MultiPolygon) to an index source',
  description:
    'The source’s data providers or an admin; at most 10,000 units per source. A unit sent again with the same ' +
    'name and polygon is left as it is; with another, 409 unit_exists. Rings must be closed, hold at least 4 ' +
    'positions, and every position be [longitude, latitude] on Earth.',
  roles: ['data_provider'],
  request: { params: IndexSourcePathParams, body: UnitAreasRequest },
  success: {
    status: 201,
    schema: UnitAreasRegistration,
    description: 'Registered',
    unchanged: { status: 200, description: 'Every unit was registered already, as sent: nothing recorded' },
  },
  problems: {
    403: { description: 'Another organization’s source', codes: ['not_source_owner'] },
    404: { description: 'No such index source', codes: ['source_not_found'] },
    409: {
      description: `unit_exists: a unit_id registered with another polygon or name; ${KEPT_CHANGING.description}`,
      codes: ['unit_exists', ...KEPT_CHANGING.codes],
    },
    422: { description: 'too_many_units: more than 10,000 units on the source', codes: ['too_many_units'] },
  },
}).handle(async ({ deps, params: { source_id }, body: request, req, res, answerUnchanged }) => {
  const context = commandContextOf(req, deps.clock.now());
  const source = await loadAggregate(deps.eventStore, indexSourceStream(source_id), indexSourceAggregate);
  // The units the last decision added (a race lost and retried decides again).
  let registered: string[] = [];
  const outcome = await handleCommand(
    deps.eventStore,
    unitAreasStream(source_id),
    unitAreasAggregate,
    (units) => {
      const events = registerUnitAreas(
        { actor: context.actor, sourceId: source_id, request, now: context.now },
        source,
        units,
      );
      registered = events.flatMap((event) => event.data.units.map((unit) => unit.unit_id));
      return events;
    },
    context,
  );
  if (outcome.appended === undefined) answerUnchanged();
  else await awaitReadModels(deps.readYourWrites, res, outcome.appended.position);
  return { source_id, registered, units_total: outcome.state.size };
});
