import type { UnitAreaEvent, UnitPolygon } from '@cropcover/contracts';
import { type Aggregate, streamName } from '../../aggregate';

/** A named area of a source (INDEX-DATA §2.4): one series of readings, read by the fields inside it. */
export interface UnitArea {
  readonly unitId: string;
  readonly name: string;
  readonly polygon: UnitPolygon;
}

/** A source's unit areas by unit_id. Kept on a stream of their own, beside the source's: polygons can
 *  weigh megabytes, and every reading posted and every quote loads the source. */
export type UnitAreas = ReadonlyMap<string, UnitArea>;

export const NO_UNIT_AREAS: UnitAreas = new Map();

export const evolveUnitAreas = (state: UnitAreas, event: UnitAreaEvent): UnitAreas => {
  const next = new Map(state);
  for (const unit of event.data.units) {
    next.set(unit.unit_id, { unitId: unit.unit_id, name: unit.name, polygon: unit.polygon });
  }
  return next;
};

/** `index_source_units-<source_id>`: the unit areas of one source. */
export const unitAreasStream = streamName('index_source_units');

export const unitAreasAggregate: Aggregate<UnitAreas, UnitAreaEvent> = {
  initial: NO_UNIT_AREAS,
  evolve: evolveUnitAreas,
};
