import { ACTIVE_CURRENCIES, type ProgrammeEvent } from '@cropcover/contracts';
import { v5 as uuidv5 } from 'uuid';

// Every organization and currency has a `default` programme without limits (SPEC §7), which issues naming
// no programme join. Its id is derived from the two, so an issue finds it without a lookup, and it is
// created by the first reservation (or change) that needs it — two concurrent first issues race on the
// stream's creation and the loser retries against it.
const DEFAULT_PROGRAMME_NAMESPACE = '5b0f1a3e-7c2d-4e8f-9a61-2d4c6e8f0b13';

export const DEFAULT_PROGRAMME_NAME = 'default';

export const defaultProgrammeId = (organizationId: string, currency: string): string =>
  uuidv5(JSON.stringify([organizationId, currency]), DEFAULT_PROGRAMME_NAMESPACE);

/** The currency `programmeId` is the organization's default programme of, if it is one: the id is derived
 *  one way, so each active code is tried (a PATCH of a programme not yet written, nothing more often). */
export const defaultProgrammeCurrency = (organizationId: string, programmeId: string): string | undefined =>
  ACTIVE_CURRENCIES.find((currency) => defaultProgrammeId(organizationId, currency) === programmeId);

/** The creation of an organization's default programme for a currency. */
export const defaultProgrammeCreated = (organizationId: string, currency: string, now: Date): ProgrammeEvent => ({
  type: 'ProgrammeCreated',
  data: {
    programme_id: defaultProgrammeId(organizationId, currency),
    organization_id: organizationId,
    name: DEFAULT_PROGRAMME_NAME,
    currency,
    is_default: true,
    aggregate_limit_minor: null,
    capacity: { zone_default_minor: null, zones: [], zone_perils: [] },
    created_at: now.toISOString(),
  },
});
