import type { LocationSampling } from '@cropcover/contracts';
import { bilinearNeighbours } from './bilinear-neighbours';
import { equallyWeighted, type SampledCells } from './sampled-cells';

/** The cells a policy's frozen sampling reads and their weights. */
export const sampledCellsOf = (sampling: LocationSampling): SampledCells =>
  sampling.method === 'bilinear'
    ? bilinearNeighbours(sampling.point, sampling.resolution_deg)
    : equallyWeighted(sampling.cells);
