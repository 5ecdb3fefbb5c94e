import { handleCommand } from '@cropcover/application';
import { FarmPathParams, Field, FieldRegisterRequest } from '@cropcover/contracts';
import { farmAggregate, farmStream, registerField } from '@cropcover/domain';
import { commandContextOf } from '../../../command-context';
import { commandRoute, KEPT_CHANGING } from '../../../command-route';
import { isKeyed, newResourceId } from '../../../idempotency/resource-id';
import { awaitReadModels } from '../../../read-your-writes';
import { fieldResponse } from '../../../registry/field-response';
import { registeredFarm } from '../../../registry/registered';
import { NOT_FARM_OWNER, UNKNOWN_FARM } from '../../farm-problems';

/** Readings and policies key on a farm's fields. */
export const registerFieldRoute = commandRoute('POST /farms/{farm_id}/fields', {
  summary: 'Register a field of a farm (owner or admin)',
  request: { params: FarmPathParams, body: FieldRegisterRequest },
  success: { status: 201, schema: Field, description: 'Created' },
  problems: {
    403: NOT_FARM_OWNER,
    404: UNKNOWN_FARM,
    409: { description: 'field_exists', codes: ['field_exists', ...KEPT_CHANGING.codes] },
  },
}).handle(async ({ deps, params: { farm_id }, body, req, res }) => {
  const context = commandContextOf(req, deps.clock.now());
  const fieldId = body.field_id ?? newResourceId(res);
  const outcome = await handleCommand(
    deps.eventStore,
    farmStream(farm_id),
    farmAggregate,
    (state) =>
      registerField(
        {
          actor: context.actor,
          fieldId,
          name: body.name,
          areaHa: body.area_ha,
          location: body.location,
          cropType: body.crop_type ?? null,
          now: context.now,
          keyed: isKeyed(res),
        },
        state,
      ),
    context,
  );
  const field = registeredFarm(outcome.state).fields.find((candidate) => candidate.fieldId === fieldId)!;
  // The farm's last event, not only an append: a keyed retry finding its first run's field waits for it too.
  await awaitReadModels(deps.readYourWrites, res, outcome.position);
  res.location(`/farms/${farm_id}/fields`);
  return fieldResponse(farm_id, field);
});
