import type { RegisteredIndexSource } from './index-source';
import { bilinearNeighbours } from './sampling/bilinear-neighbours';
import { cellsOfUnit } from './unit-areas/cells-of-unit';
import { NO_UNIT_AREAS, type UnitAreas } from './unit-areas/unit-areas';

// INDEX-DATA §2.2: a grid source keeps readings only for the cells its locations of interest read, and
// backfills exactly those from its kept files. Which cells a location reads depends on how the source
// samples its grid; every question of "which cells does this location need" comes here, so a new sampling
// is one more case below.

/**
 * The grid cells a location of a source reads, each once: a unit area's cells (those whose centres lie in
 * its polygon, INDEX-DATA §2.4); under `bilinear` sampling the four cells whose centres are nearest the
 * point; under `cell` the cell itself. A station or field source reads no grid: none.
 */
export const cellsReadBy = (
  source: RegisteredIndexSource,
  location: string,
  units: UnitAreas = NO_UNIT_AREAS,
): string[] => {
  if (source.kind !== 'grid') return [];
  const unit = units.get(location);
  if (unit !== undefined) return cellsOfUnit(unit.polygon, source.resolutionDeg!);
  switch (source.sampling) {
    case 'bilinear': {
      // The neighbours the evaluation interpolates between (sampling/), weights aside.
      const [lat, lon] = location.split(',').map(Number);
      if (lat === undefined || lon === undefined || !Number.isFinite(lat) || !Number.isFinite(lon)) {
        throw new RangeError(`"${location}" is not a point "lat,lon"`);
      }
      const { cells } = bilinearNeighbours({ lat, lon }, source.resolutionDeg!);
      return [...new Set(cells.map(({ cell }) => cell))];
    }
    case 'cell':
    case 'unit_mean':
      return [location];
  }
};
