import { handleCommand } from '@cropcover/application';
import { FarmPathParams, type Field, FieldRegisterRequest } from '@cropcover/contracts';
import { farmAggregate, farmStream, registerField } from '@cropcover/domain';
import { parseBody, parseParams } from '@cropcover/runtime';
import type { RequestHandler } from 'express';
import type { CommandApiDeps } from '../../../command-api-deps';
import { commandContextOf } from '../../../command-context';
import { isKeyed, newResourceId } from '../../../idempotency/resource-id';
import { awaitReadModels } from '../../../read-your-writes';
import { registeredFarm } from '../../../registry/registered';

/** POST /farms/{farm_id}/fields — a field of the farm (owner or admin); readings and policies key on it. */
export const registerFieldRoute =
  (deps: CommandApiDeps): RequestHandler =>
  async (req, res) => {
    const { farm_id } = parseParams(FarmPathParams, req);
    const body = parseBody(FieldRegisterRequest, req);
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
    const response: Field = {
      field_id: field.fieldId,
      farm_id,
      name: field.name,
      area_ha: field.areaHa,
      location: field.location,
      crop_type: field.cropType,
      created_at: field.registeredAt,
    };
    res.status(201).location(`/farms/${farm_id}/fields`).json(response);
  };
