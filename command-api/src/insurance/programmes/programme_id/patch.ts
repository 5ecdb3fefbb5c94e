import { handleCommand } from '@cropcover/application';
import { Programme, ProgrammePathParams, ProgrammeUpdateRequest, UNKNOWN_PROGRAMME } from '@cropcover/contracts';
import { programmeAggregate, programmeStream, programmeView, updateProgramme } from '@cropcover/domain';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { awaitReadModels } from '../../../read-your-writes';

/** SPEC §7: sets or removes limits; never below what is already committed under them. */
export const updateProgrammeRoute = commandRoute('PATCH /insurance/programmes/{programme_id}', {
  summary: "Change a programme's aggregate limit and capacity rules (null removes a limit)",
  roles: ['insurer'],
  request: { params: ProgrammePathParams, body: ProgrammeUpdateRequest },
  success: { status: 200, schema: Programme, description: 'Updated' },
  problems: {
    404: UNKNOWN_PROGRAMME,
    409: KEPT_CHANGING,
    422: {
      description: 'A limit would be below what is committed, or an amount has more decimals than the currency',
      codes: ['capacity_below_committed', 'invalid_amount'],
    },
  },
}).handle(async ({ deps, params: { programme_id }, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    programmeStream(programme_id),
    programmeAggregate,
    (state) =>
      updateProgramme({ actor: context.actor, programmeId: programme_id, request: body, now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  if (outcome.state.status !== 'open') throw new Error('an updated programme is open');
  return programmeView(outcome.state);
});
