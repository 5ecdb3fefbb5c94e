import type { Projection } from './projection';
import { farmersProjection } from './projections/farmers-projection';
import { farmsProjection } from './projections/farms-projection';
import { indexSourcesProjection } from './projections/index-sources-projection';
import { policiesProjection } from './projections/policies-projection';
import { productsProjection } from './projections/products-projection';
import { programmesProjection } from './projections/programmes-projection';
import { reinsuranceProjection } from './projections/reinsurance-projection';
import { unitAreasProjection } from './projections/unit-areas-projection';
import { webhooksProjection } from './projections/webhooks-projection';

/** Every projection of the read models the query API serves; the projector runs and rebuilds these. */
export const readModelProjections: readonly Projection[] = [
  farmersProjection,
  farmsProjection,
  indexSourcesProjection,
  policiesProjection,
  productsProjection,
  programmesProjection,
  reinsuranceProjection,
  unitAreasProjection,
  webhooksProjection,
];
