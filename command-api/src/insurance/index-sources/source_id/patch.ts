import { actorOf, setAreaOfInterest, sourceForFiles } from '@cropcover/application';
import { IndexSourceAreaOfInterest, IndexSourcePathParams, IndexSourceUpdateRequest } from '@cropcover/contracts';
import { commandRoute } from '../../../command-route';

/** INDEX-DATA.md §2.2: the area a grid source keeps readings for, beside the cells its policies read. */
export const updateIndexSourceRoute = commandRoute('PATCH /insurance/index-sources/{source_id}', {
  summary: 'Register the area of interest of a grid source (its data providers)',
  description:
    'A grid source keeps readings only for its locations of interest: the cells its policies, quotes and ' +
    'programme zones read, and this area (`bbox` [west, south, east, north]: the cells whose centres lie ' +
    'inside; or `cells`, each by any point of it). It replaces the area before; a cell once of interest ' +
    'stays so. The new cells are backfilled from the files the source keeps, in the background. A source ' +
    'with no location of interest keeps every cell of its files.',
  roles: ['data_provider'],
  request: { params: IndexSourcePathParams, body: IndexSourceUpdateRequest },
  success: { status: 200, schema: IndexSourceAreaOfInterest, description: 'The area, and its cells being backfilled' },
  problems: {
    403: { description: "not_source_owner: another organization's source", codes: ['not_source_owner'] },
    404: { description: 'No such source', codes: ['not_found'] },
    422: {
      description: 'not_a_grid_source, area_of_interest_too_large',
      codes: ['not_a_grid_source', 'area_of_interest_too_large'],
    },
  },
}).handle(async ({ deps, params: { source_id }, body, principal, organizationId }) => {
  const source = await sourceForFiles(deps.eventStore, { ...actorOf(principal), organizationId }, source_id);
  return setAreaOfInterest(deps.db, deps.historyBackfills, {
    source,
    area: body.area_of_interest,
    setBy: principal.sub,
    now: deps.clock.now(),
  });
});
