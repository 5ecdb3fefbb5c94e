import { handleCommand, loadAggregate } from '@cropcover/application';
import { ProgrammePathParams, Treaty, TreatyBindRequest, UNKNOWN_PROGRAMME } from '@cropcover/contracts';
import {
  bindTreaty,
  DomainError,
  programmeAggregate,
  programmeStream,
  reinsuranceLedgerAggregate,
  reinsuranceStream,
  treatyView,
} from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { newResourceId } from '../../../../idempotency/resource-id';
import { awaitReadModels } from '../../../../read-your-writes';

/** SPEC §7 "Reinsurance": a treaty bound to the programme, applied after those bound before it. */
export const bindTreatyRoute = commandRoute('POST /insurance/programmes/{programme_id}/treaties', {
  summary: 'Bind a quota share, stop-loss or cat XL treaty to a programme, after those bound before it',
  roles: ['insurer'],
  request: { params: ProgrammePathParams, body: TreatyBindRequest },
  success: { status: 201, schema: Treaty, description: 'Bound' },
  problems: {
    404: UNKNOWN_PROGRAMME,
    409: { description: 'A new treaty kept colliding', codes: ['treaty_exists', ...KEPT_CHANGING.codes] },
    422: { description: 'treaty_period_overlaps', codes: ['treaty_period_overlaps'] },
  },
}).handle(async ({ deps, params: { programme_id }, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const programme = await loadAggregate(deps.eventStore, programmeStream(programme_id), programmeAggregate);
  if (programme.status !== 'open') throw new DomainError('not_found', 'programme_not_found', 'no such programme');
  const treatyId = newResourceId(res);
  const outcome = await handleCommand(
    deps.eventStore,
    reinsuranceStream(programme_id),
    reinsuranceLedgerAggregate,
    (ledger) =>
      // A keyed retry whose first run bound the treaty answers with it.
      ledger.treaties.some((treaty) => treaty.treatyId === treatyId)
        ? []
        : bindTreaty({ actor: context.actor, treatyId, programme, request: body, now: context.now }, ledger),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  const bound = outcome.state.treaties.find((treaty) => treaty.treatyId === treatyId)!;
  res.location(`/insurance/programmes/${programme_id}/treaties`);
  return treatyView({
    treaty_id: bound.treatyId,
    programme_id,
    currency: programme.currency,
    period: bound.period,
    reinsurer_organization_id: bound.reinsurerOrganizationId,
    inurance_order: bound.inuranceOrder,
    terms: bound.terms,
    bound_at: bound.boundAt,
  });
});
