import type { ReadModels } from '@cropcover/read-store';
import { type Kysely, sql } from 'kysely';

/** The command API's reaction to a farmer's erasure (SPEC §6): the answers it kept for retries hold
 *  responses in clear, so those naming the farmer or one of their farms (a policy's answer names the farm
 *  and its name, not the farmer) go. A retry after erasure is simply decided again. */
export const forgetAnswersAboutFarmer = async (db: Kysely<ReadModels>, farmerId: string): Promise<void> => {
  await db
    .deleteFrom('idempotency_keys')
    .where('response_body', 'like', sql<string>`${`%${farmerId}%`}`)
    .execute();
  await sql`delete from idempotency_keys k using farms f
    where f.owner_farmer_id = ${farmerId} and k.response_body like '%' || f.farm_id || '%'`.execute(db);
};
