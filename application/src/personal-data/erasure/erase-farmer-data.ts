import {
  DomainError,
  eraseFarmer,
  type Farmer,
  farmerAggregate,
  farmerStream,
  normalizeShareableId,
} from '@cropcover/domain';
import type { EventStore } from '@cropcover/eventstore';
import type { ReadModels } from '@cropcover/read-store';
import type { Kysely } from 'kysely';
import type { CommandContext } from '../../command-context';
import { type CommandOutcome, handleCommand, loadStream } from '../../handle-command';
import type { FarmerKeys } from '../farmer-keys';

export interface FarmerErasureDeps {
  readonly eventStore: EventStore;
  readonly db: Kysely<ReadModels>;
  readonly farmerKeys: FarmerKeys;
  /** The calling process's reaction for the tables it owns (the command API: its kept answers). */
  readonly forgetAnswersAbout: (farmerId: string) => Promise<void>;
}

/** Whom to erase: the caller's own profile, or one an admin names by its shareable id. */
export type ErasureTarget = { readonly farmerId: string } | { readonly platformFarmerId: string };

const farmerIdOf = async (db: Kysely<ReadModels>, target: ErasureTarget): Promise<string> => {
  if ('farmerId' in target) return target.farmerId;
  const code = normalizeShareableId('PF', target.platformFarmerId);
  const row =
    code === undefined
      ? undefined
      : await db.selectFrom('farmers').select('farmer_id').where('platform_farmer_id', '=', code).executeTakeFirst();
  if (!row) throw new DomainError('not_found', 'farmer_profile_not_found', `No farmer ${target.platformFarmerId}.`);
  return row.farmer_id;
};

/** Erasure (SPEC §6), the use case: the farmer's data key is destroyed first, so from that moment no
 *  reader, replay or rebuild opens their personal fields, even if the process dies before `FarmerErased` is
 *  appended (asking again appends it). Then each table's owner removes what it kept in clear: the caller's
 *  own tables here (`forgetAnswersAbout`), the projections and the monitor as they read `FarmerErased`
 *  (docs/architecture.md, "Erasure"). A profile that does not exist is refused, `farmer_profile_not_found`. */
export const eraseFarmerData = async (
  deps: FarmerErasureDeps,
  context: CommandContext,
  target: ErasureTarget,
  erasedBy: 'farmer' | 'admin',
): Promise<CommandOutcome<Farmer>> => {
  const farmerId = await farmerIdOf(deps.db, target);
  const stream = farmerStream(farmerId);
  const loaded = await loadStream(deps.eventStore, stream, farmerAggregate);
  // Only a farmer who exists gets a tombstone: an unknown id must stay free to register.
  if (loaded.state.status === 'registered') await deps.farmerKeys.erase(farmerId, context.now);
  const decide = (state: Farmer) => eraseFarmer({ erasedBy, now: context.now }, state);
  const outcome = await handleCommand(deps.eventStore, stream, farmerAggregate, decide, context, loaded);
  await deps.forgetAnswersAbout(farmerId);
  return outcome;
};
