import { decodeEvent, isOneOf } from '@cropcover/application';
import type { UnitAreaEvent } from '@cropcover/contracts';
import type { Projection } from '../projection';
import { inChunks } from './row-chunks';

const HANDLED = new Set<UnitAreaEvent['type']>(['UnitAreasRegistered']);

/** Unit areas (`index_source_units`) from the `index_source_units-<source_id>` streams. A unit is
 *  registered once and never changes, so a replayed registration is ignored. */
export const unitAreasProjection: Projection = {
  name: 'index_source_units',
  tables: ['index_source_units'],
  apply: async (trx, events) => {
    const rows = events
      .filter(isOneOf(HANDLED))
      .map(decodeEvent)
      .flatMap(({ data }) =>
        data.units.map((unit) => ({
          source_id: data.source_id,
          unit_id: unit.unit_id,
          name: unit.name,
          polygon: JSON.stringify(unit.polygon),
          registered_at: data.registered_at,
        })),
      );
    for (const chunk of inChunks(rows)) {
      await trx
        .insertInto('index_source_units')
        .values(chunk)
        .onConflict((conflict) => conflict.columns(['source_id', 'unit_id']).doNothing())
        .execute();
    }
  },
};
