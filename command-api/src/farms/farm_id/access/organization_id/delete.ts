import { handleCommand } from '@cropcover/application';
import { FarmAccessPathParams } from '@cropcover/contracts';
import { farmAggregate, farmStream, revokeFarmAccess } from '@cropcover/domain';
import { commandContextOf } from '../../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../../command-route';
import { awaitReadModels } from '../../../../read-your-writes';
import { NOT_FARM_OWNER } from '../../../farm-problems';

/** The farmer (or an admin) ends an organization's access (SPEC §6); its policies already issued stay
 *  valid, evaluable and payable. */
export const revokeFarmAccessRoute = commandRoute('DELETE /farms/{farm_id}/access/{organization_id}', {
  summary: "Revoke an organization's access to a farm (owner or admin)",
  request: { params: FarmAccessPathParams },
  success: { status: 204, description: 'Revoked' },
  problems: {
    403: NOT_FARM_OWNER,
    404: {
      description: 'Unknown farm, or no grant to that organization',
      codes: ['not_found', 'access_grant_not_found'],
    },
    409: KEPT_CHANGING,
  },
}).handle(async ({ deps, params: { farm_id, organization_id }, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    farmStream(farm_id),
    farmAggregate,
    (state) => revokeFarmAccess({ actor: context.actor, organizationId: organization_id, now: context.now }, state),
    context,
  );
  await awaitReadModels(deps.readYourWrites, res, outcome.appended?.position);
  return undefined;
});
