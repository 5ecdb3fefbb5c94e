import { handleCommand } from '@cropcover/application';
import { Programme, ProgrammeCreateRequest } from '@cropcover/contracts';
import { createProgramme, programmeAggregate, programmeStream, programmeView } from '@cropcover/domain';
import { commandContextOf } from '../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../command-route';
import { isKeyed, newResourceId } from '../../idempotency/resource-id';
import { awaitReadModels } from '../../read-your-writes';

/** SPEC §7: a programme of the insurer's organization in one currency, with its capacity rules. */
export const createProgrammeRoute = commandRoute('POST /insurance/programmes', {
  summary: 'Create a programme with capacity per zone, per (zone, peril) and in aggregate',
  roles: ['insurer'],
  request: { body: ProgrammeCreateRequest },
  success: { status: 201, schema: Programme, description: 'Created' },
  problems: {
    409: { description: 'A new programme kept colliding', codes: ['programme_exists', ...KEPT_CHANGING.codes] },
  },
}).handle(async ({ deps, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const programmeId = newResourceId(res);
  const outcome = await handleCommand(
    deps.eventStore,
    programmeStream(programmeId),
    programmeAggregate,
    (state) =>
      // A keyed retry whose first run created the programme answers with it.
      state.status === 'open' && isKeyed(res)
        ? []
        : createProgramme({ actor: context.actor, programmeId, request: body, now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  res.location(`/insurance/programmes/${programmeId}`);
  if (outcome.state.status !== 'open') throw new Error('a created programme is open');
  return programmeView(outcome.state);
});
