import type { FarmerErasureDeps } from '@cropcover/application';
import type { CommandApiDeps } from '../../command-api-deps';
import { forgetAnswersAboutFarmer } from '../../idempotency/erased-farmer-answers';

/** What the erasure use case needs from the command API, its kept answers' reaction among them. */
export const farmerErasureDeps = (deps: CommandApiDeps): FarmerErasureDeps => ({
  eventStore: deps.eventStore,
  db: deps.db,
  farmerKeys: deps.farmerKeys,
  forgetAnswersAbout: (farmerId) => forgetAnswersAboutFarmer(deps.db, farmerId),
});
