import { handleCommand } from '@cropcover/application';
import { FarmAccessGrant, FarmAccessGrantRequest, FarmPathParams } from '@cropcover/contracts';
import { farmAggregate, farmStream, grantFarmAccess } from '@cropcover/domain';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { awaitReadModels } from '../../../read-your-writes';
import { registeredFarm } from '../../../registry/registered';
import { NOT_FARM_OWNER, UNKNOWN_FARM } from '../../farm-problems';

/** The farmer (or an admin) grants an organization access to the farm (SPEC §6): reading the farm, its
 *  fields and its farmer, and with `insurance` quoting and insuring it. */
export const grantFarmAccessRoute = commandRoute('POST /farms/{farm_id}/access', {
  summary: 'Grant an organization access to a farm (owner or admin)',
  description: 'A grant to an organization that holds one replaces it; the same grant again records nothing.',
  request: { params: FarmPathParams, body: FarmAccessGrantRequest },
  success: { status: 201, schema: FarmAccessGrant, description: 'Granted' },
  problems: {
    403: NOT_FARM_OWNER,
    404: UNKNOWN_FARM,
    409: KEPT_CHANGING,
    422: { description: 'expires_on is before today', codes: ['access_expiry_past'] },
  },
}).handle(async ({ deps, params: { farm_id }, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const outcome = await handleCommand(
    deps.eventStore,
    farmStream(farm_id),
    farmAggregate,
    (state) =>
      grantFarmAccess(
        {
          actor: context.actor,
          organizationId: body.organization_id,
          purposes: body.purposes,
          expiresOn: body.expires_on ?? null,
          now: context.now,
        },
        state,
      ),
    context,
  );
  const grant = registeredFarm(outcome.state).organizations.find(
    (candidate) => candidate.organization_id === body.organization_id,
  )!;
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  res.location(`/farms/${farm_id}/access`);
  return {
    farm_id,
    organization_id: grant.organization_id,
    purposes: [...grant.purposes],
    relationship: grant.purposes[0]!,
    origin: grant.origin,
    granted_at: grant.granted_at,
    expires_on: grant.expires_on,
  };
});
