import type { Programme } from '@cropcover/contracts';
import { type ActorInRoles, canSeeProgramme, defaultProgrammeCurrency, toMajorUnits } from '@cropcover/domain';
import { loadProgramme, type ProgrammeRecord, type ReadModels } from '@cropcover/read-store';
import { ProblemError } from '@cropcover/runtime';
import type { Kysely } from 'kysely';

/** The insurer runs programmes; a reinsurer reads those its treaties cover (SPEC §4). */
export const PROGRAMME_READERS = ['insurer', 'reinsurer'] as const;

const notVisible = (programmeId: string): ProblemError =>
  new ProblemError({
    status: 404,
    code: 'programme_not_found',
    title: 'Not Found',
    detail: `No programme ${programmeId} is visible to you.`,
  });

/** The programme's record when the actor may see it; 404 `programme_not_found` otherwise, never 403. */
export const readVisibleProgramme = async (
  db: Kysely<ReadModels>,
  programmeId: string,
  actor: ActorInRoles,
): Promise<ProgrammeRecord> => {
  const record = await loadProgramme(db, programmeId);
  if (record === undefined || !canSeeProgramme(actor, record)) throw notVisible(programmeId);
  return record;
};

/** The currency of a programme whose book the actor may read: a written programme's, or that of the
 *  actor's organization's default programme of a currency before anything was written to it — it exists
 *  from the start, without limits (SPEC §7), so its book is empty rather than not found. */
export const readVisibleBookCurrency = async (
  db: Kysely<ReadModels>,
  programmeId: string,
  actor: ActorInRoles,
): Promise<string> => {
  const record = await loadProgramme(db, programmeId);
  if (record !== undefined) {
    if (!canSeeProgramme(actor, record)) throw notVisible(programmeId);
    return record.currency;
  }
  const unwritten =
    actor.organizationId === null ? undefined : defaultProgrammeCurrency(actor.organizationId, programmeId);
  if (unwritten === undefined) throw notVisible(programmeId);
  return unwritten;
};

export const programmeOf = (record: ProgrammeRecord): Programme => {
  const money = (minor: number) => toMajorUnits(minor, record.currency);
  return {
    programme_id: record.programme_id,
    organization_id: record.organization_id,
    name: record.name,
    currency: record.currency,
    is_default: record.is_default,
    aggregate_limit: record.aggregate_limit_minor === null ? null : money(record.aggregate_limit_minor),
    capacity: {
      zone_default: record.zone_default_minor === null ? null : money(record.zone_default_minor),
      zones: record.zones.map(({ capacity_minor, ...zone }) => ({ ...zone, capacity: money(capacity_minor) })),
      zone_perils: record.zone_perils.map(({ capacity_minor, peril, ...zone }) => ({
        ...zone,
        peril: peril as Programme['capacity']['zone_perils'][number]['peril'],
        capacity: money(capacity_minor),
      })),
    },
    created_at: record.created_at.toISOString(),
    updated_at: record.updated_at.toISOString(),
  };
};
