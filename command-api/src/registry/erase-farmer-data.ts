import { type CommandContext, type CommandOutcome, handleCommand, loadStream } from '@cropcover/application';
import { eraseFarmer, type Farmer, farmerAggregate, farmerStream } from '@cropcover/domain';
import { sql } from 'kysely';
import type { CommandApiDeps } from '../command-api-deps';

/** Erasure (SPEC §6): the farmer's data key is destroyed first, so from that moment no reader, replay or
 *  rebuild opens their personal fields, even if the process dies before `FarmerErased` is appended (asking
 *  again appends it). Answers the idempotency keys kept for this farmer's profile are dropped too: they hold
 *  responses in clear, and a retry after erasure is simply decided again; so are the monitor's snapshots of
 *  their policies. */
export const eraseFarmerData = async (
  deps: CommandApiDeps,
  context: CommandContext,
  farmerId: string,
  erasedBy: 'farmer' | 'admin',
): Promise<CommandOutcome<Farmer>> => {
  const stream = farmerStream(farmerId);
  const loaded = await loadStream(deps.eventStore, stream, farmerAggregate);
  // Only a farmer who exists gets a tombstone: an unknown id must stay free to register.
  const decide = (state: Farmer) => eraseFarmer({ erasedBy, now: context.now }, state);
  if (loaded.state.status === 'registered') await deps.farmerKeys.erase(farmerId, context.now);
  const outcome = await handleCommand(deps.eventStore, stream, farmerAggregate, decide, context, loaded);
  await deps.db
    .deleteFrom('idempotency_keys')
    .where('response_body', 'like', sql<string>`${`%${farmerId}%`}`)
    .execute();
  // A policy's answer names the farm (and its name), not the farmer.
  await sql`delete from idempotency_keys k using farms f
    where f.owner_farmer_id = ${farmerId} and k.response_body like '%' || f.farm_id || '%'`.execute(deps.db);
  // The monitor's snapshots of this farmer's policies hold the farm name opened: they are a cache of the
  // log, so they go, and the next load replays the stream, where the name now reads erased.
  await deps.db
    .deleteFrom('policy_snapshots')
    .where('state', 'like', sql<string>`${`%"owner_farmer_id":${JSON.stringify(farmerId)}%`}`)
    .execute();
  return outcome;
};
