import type { LedgerPeriod, TreatyType } from '@cropcover/contracts';
import type { PeriodFigures } from '@cropcover/domain';
import { type Kysely, sql } from 'kysely';
import type { ReadModels } from '../read-models';

/** A programme's figures for a period from the read models: premium of the policies issued in it (less
 *  those that lapsed: their premium was never paid) and what they were paid, from `programme_policies`;
 *  the totals of the treaties whose period lies within it, in the order they apply, from `treaties`. */
export const loadPeriodFigures = async (
  db: Kysely<ReadModels>,
  programmeId: string,
  period: LedgerPeriod,
): Promise<PeriodFigures> => {
  const gross = await db
    .selectFrom('programme_policies')
    .select([
      sql<string>`coalesce(sum(premium_minor) filter (where released_reason is distinct from 'lapsed'), 0)`.as(
        'premium',
      ),
      sql<string>`coalesce(sum(claims_minor), 0)`.as('claims'),
    ])
    .where('programme_id', '=', programmeId)
    .where('issued_on', '>=', period.from)
    .where('issued_on', '<=', period.to)
    .executeTakeFirstOrThrow();
  const treaties = await db
    .selectFrom('treaties')
    .select(['treaty_id', 'type', 'ceded_premium_minor', 'ceding_commission_minor', 'recoveries_minor'])
    .where('programme_id', '=', programmeId)
    .where('period_from', '>=', period.from)
    .where('period_to', '<=', period.to)
    .orderBy('inurance_order')
    .execute();
  return {
    grossPremiumMinor: Number(gross.premium),
    grossClaimsMinor: Number(gross.claims),
    treaties: treaties.map((treaty) => ({
      treatyId: treaty.treaty_id,
      type: treaty.type as TreatyType,
      cededPremiumMinor: Number(treaty.ceded_premium_minor),
      cedingCommissionMinor: Number(treaty.ceding_commission_minor),
      recoveriesMinor: Number(treaty.recoveries_minor),
    })),
  };
};
